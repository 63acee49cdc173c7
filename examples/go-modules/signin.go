package recipe

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

// SignIn signs a person in through the organization's IAM (an OpenID provider, Keycloak's
// paths): discovery, the authorization code flow with PKCE (S256, which the realm requires)
// and the ID token verified with go-oidc. The realm's clients are public, so there is no
// secret: PKCE is what binds the code to whoever started the sign-in.
type SignIn struct {
	provider *oidc.Provider
	config   oauth2.Config
	verifier *oidc.IDTokenVerifier
	client   *http.Client
	// The realm's URL, the iss of its tokens, as its discovery document says.
	issuer string
	// RFC 9207: the realm says it puts iss in the authorization response.
	issInResponse bool
}

// NewSignIn discovers the realm at issuer (e.g. http://127.0.0.1:4002/realms/acme) and
// prepares the client clientID, whose registered redirect URI is redirectURL. client makes
// every request to the IAM.
func NewSignIn(ctx context.Context, issuer, clientID, redirectURL string, client *http.Client) (*SignIn, error) {
	// go-oidc refuses a discovery document whose issuer is not exactly issuer.
	provider, err := oidc.NewProvider(oidc.ClientContext(ctx, client), issuer)
	if err != nil {
		return nil, fmt.Errorf("discovering the realm %s: %w", issuer, err)
	}
	var extra struct {
		Issuer       string `json:"issuer"`
		IssParameter bool   `json:"authorization_response_iss_parameter_supported"`
	}
	if err := provider.Claims(&extra); err != nil {
		return nil, fmt.Errorf("reading the realm's discovery document: %w", err)
	}
	endpoint := provider.Endpoint()
	// token_endpoint_auth_methods_supported is ["none"]: client_id in the form, no secret.
	endpoint.AuthStyle = oauth2.AuthStyleInParams
	return &SignIn{
		provider: provider,
		config: oauth2.Config{
			ClientID:    clientID,
			Endpoint:    endpoint,
			RedirectURL: redirectURL,
			Scopes:      []string{oidc.ScopeOpenID, "profile", "email"},
		},
		// The realm signs with ES256 alone; pinning it means a token in any other algorithm
		// is refused even if the discovery document were to list more.
		verifier:      provider.Verifier(&oidc.Config{ClientID: clientID, SupportedSigningAlgs: []string{oidc.ES256}}),
		client:        client,
		issuer:        extra.Issuer,
		issInResponse: extra.IssParameter,
	}, nil
}

// Pending is one sign-in under way: what the app keeps (in its session, server-side) between
// sending the browser to URL and the browser coming back to the redirect URI.
type Pending struct {
	URL      string // where to send the browser
	State    string // binds the answer to this request (RFC 6749 §10.12)
	Nonce    string // binds the ID token to this request (OIDC Core §3.1.2.1)
	Verifier string // the PKCE code verifier (RFC 7636): never leaves the app
}

// Start begins a sign-in: state and nonce are unguessable (crypto/rand), the verifier too.
// options add parameters to the request, e.g. oauth2.SetAuthURLParam("prompt", "none").
func (s *SignIn) Start(options ...oauth2.AuthCodeOption) Pending {
	state, nonce, verifier := rand.Text(), rand.Text(), oauth2.GenerateVerifier()
	options = append(options, oauth2.S256ChallengeOption(verifier), oidc.Nonce(nonce))
	return Pending{
		URL:      s.config.AuthCodeURL(state, options...),
		State:    state,
		Nonce:    nonce,
		Verifier: verifier,
	}
}

// Person is who signed in, from a verified ID token.
type Person struct {
	Sub               string   `json:"sub"`
	Name              string   `json:"name"`
	Email             string   `json:"email"`
	EmailVerified     bool     `json:"email_verified"`
	PreferredUsername string   `json:"preferred_username"`
	Groups            []string `json:"groups"`
	// The IAM's tokens: the access token for the IAM's userinfo (and for QueryMesh when the
	// realm grants its scope), the refresh token to renew it.
	Token *oauth2.Token `json:"-"`
}

// ErrRefused is the IAM's error answer at the redirect URI (RFC 6749 §4.1.2.1).
var ErrRefused = errors.New("the IAM refused the sign-in")

// Finish completes the sign-in p from the URL the browser came back to: the answer's state
// and iss, the code exchanged with the PKCE verifier, the ID token's signature, issuer,
// audience, expiry, nonce and at_hash.
func (s *SignIn) Finish(ctx context.Context, p Pending, callback string) (*Person, error) {
	answer, err := url.Parse(callback)
	if err != nil {
		return nil, fmt.Errorf("the redirect URI's answer %q: %w", callback, err)
	}
	query := answer.Query()
	if query.Get("state") != p.State {
		return nil, errors.New("the answer's state is not this sign-in's")
	}
	// RFC 9207 §2.4: an answer from another provider (mix-up attack) is refused.
	if s.issInResponse && query.Get("iss") != s.Issuer() {
		return nil, fmt.Errorf("the answer's iss %q is not the realm %q", query.Get("iss"), s.Issuer())
	}
	if code := query.Get("error"); code != "" {
		return nil, fmt.Errorf("%w: %s: %s", ErrRefused, code, query.Get("error_description"))
	}
	code := query.Get("code")
	if code == "" {
		return nil, errors.New("the answer has neither a code nor an error")
	}
	ctx = context.WithValue(ctx, oauth2.HTTPClient, s.client)
	token, err := s.config.Exchange(ctx, code, oauth2.VerifierOption(p.Verifier))
	if err != nil {
		return nil, fmt.Errorf("exchanging the code: %w", err)
	}
	raw, ok := token.Extra("id_token").(string)
	if !ok || raw == "" {
		return nil, errors.New("the token response has no id_token")
	}
	idToken, err := s.verifier.Verify(ctx, raw)
	if err != nil {
		return nil, fmt.Errorf("the ID token: %w", err)
	}
	// go-oidc leaves the nonce to the caller, who alone knows which one was sent.
	if idToken.Nonce != p.Nonce {
		return nil, errors.New("the ID token's nonce is not this sign-in's")
	}
	if err := idToken.VerifyAccessToken(token.AccessToken); err != nil {
		return nil, fmt.Errorf("the access token does not match the ID token's at_hash: %w", err)
	}
	person := &Person{Token: token}
	if err := idToken.Claims(person); err != nil {
		return nil, fmt.Errorf("the ID token's claims: %w", err)
	}
	return person, nil
}

// Issuer is the realm's URL, the iss of its tokens.
func (s *SignIn) Issuer() string {
	return s.issuer
}

// UserInfo asks the IAM who the access token is for.
func (s *SignIn) UserInfo(ctx context.Context, token *oauth2.Token) (*oidc.UserInfo, error) {
	ctx = oidc.ClientContext(ctx, s.client)
	return s.provider.UserInfo(ctx, s.config.TokenSource(context.WithValue(ctx, oauth2.HTTPClient, s.client), token))
}

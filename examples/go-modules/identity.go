// Package recipe is an app's tests against zero-sandbox in Go with maintained modules:
//
//	cd examples/go-modules && go test -count=1 ./...
//
// The standard-library recipe in ../go spells out the runtime protocol's checks by hand; this
// one leaves the JOSE work to github.com/go-jose/go-jose/v4 and the OpenID Connect client to
// github.com/coreos/go-oidc/v3 and golang.org/x/oauth2 (go-oidc builds on the same go-jose, so
// the module has one JOSE implementation, not two).
//
//   - identity.go: Verifier checks X-NNumbers-Identity as the runtime protocol asks, and as
//     strictly as the broker does (the forgeries of `zero-sandbox token` are its tests).
//   - keys.go: the JWKS, from NNUMBERS_IDENTITY_JWKS and then the broker's /v1/jwks.
//   - app.go: the app, GET /me: who signed in, or 401.
//   - signin.go: signing a person in through the organization's IAM, code + PKCE.
package recipe

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// IdentityHeader is where the edge hands the app who signed in.
const IdentityHeader = "X-NNumbers-Identity"

const (
	// The JOSE typ of an identity (runtime protocol, "The Identity of Who Signed In").
	identityType = "nn-identity+jwt"
	// Check 5: nbf and exp with up to 60 s of clock tolerance.
	clockTolerance = 60 * time.Second
	// "the identity is valid for 5 minutes": exp is iat + 300 s.
	identityLifetime = 5 * time.Minute
)

// Why an identity was refused; VerifyAt's errors wrap exactly one of these.
var (
	ErrMalformed       = errors.New("not a compact JWS")
	ErrAlgorithm       = errors.New("not ES256")
	ErrType            = errors.New("not an nn-identity+jwt")
	ErrUnknownKey      = errors.New("signed by a key the broker does not publish")
	ErrCritical        = errors.New("a crit header this app does not understand")
	ErrSignature       = errors.New("bad signature")
	ErrIssuer          = errors.New("another issuer")
	ErrAudience        = errors.New("issued to another app")
	ErrOrganization    = errors.New("another organization")
	ErrExpired         = errors.New("expired")
	ErrNotYetValid     = errors.New("not yet valid")
	ErrValidity        = errors.New("not the platform's 5-minute validity")
	ErrUnreadableClaim = errors.New("unreadable claims")
)

// Identity is who signed in: the claims of a verified X-NNumbers-Identity.
type Identity struct {
	// iss, sub, aud, jti, iat, nbf, exp.
	jwt.Claims
	Org               string `json:"org"`
	OrgSlug           string `json:"org_slug"`
	IAM               string `json:"iam"`
	Sid               string `json:"sid"`
	Name              string `json:"name,omitempty"`
	Email             string `json:"email,omitempty"`
	EmailVerified     *bool  `json:"email_verified,omitempty"`
	PreferredUsername string `json:"preferred_username,omitempty"`
}

// Expected is what the app's environment says a valid identity carries.
type Expected struct {
	Issuer string // NNUMBERS_IDENTITY_ISSUER
	AppID  string // NNUMBERS_APP_ID
	OrgID  string // NNUMBERS_ORG_ID
}

// Verifier checks identities against Expected with the keys of a KeySet.
type Verifier struct {
	Expected Expected
	Keys     *KeySet
}

// Verify checks token now; any error means: not a person.
func (v *Verifier) Verify(ctx context.Context, token string) (*Identity, error) {
	return v.VerifyAt(ctx, token, time.Now())
}

// VerifyAt runs the runtime protocol's five checks at the time now, and the broker's strict
// ones besides (a crit header, a high-S signature, a validity other than iat to iat + 300 s).
func (v *Verifier) VerifyAt(ctx context.Context, token string, now time.Time) (*Identity, error) {
	// Only ES256 is accepted: alg "none", HS256 with the public key as secret and any other
	// algorithm are refused before a key is looked at.
	jws, err := jose.ParseSignedCompact(token, []jose.SignatureAlgorithm{jose.ES256})
	if err != nil {
		var alg *jose.ErrUnexpectedSignatureAlgorithm
		if errors.As(err, &alg) {
			return nil, fmt.Errorf("%w: alg %q", ErrAlgorithm, alg.Got)
		}
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	signature := jws.Signatures[0]
	if typ, _ := signature.Protected.ExtraHeaders[jose.HeaderType].(string); typ != identityType {
		return nil, fmt.Errorf("%w: typ %q", ErrType, typ)
	}
	// Check 1: the signature, by the key its kid names.
	key, err := v.Keys.Key(ctx, signature.Protected.KeyID)
	if err != nil {
		return nil, err
	}
	payload, err := jws.Verify(key)
	switch {
	case errors.Is(err, jose.ErrUnsupportedCriticalHeader):
		return nil, ErrCritical
	case err != nil:
		return nil, ErrSignature
	case !lowS(signature.Signature):
		// ECDSA accepts (r, n - s) as well as (r, s): a second valid signature made from the
		// first without the key. The broker refuses it, and so does the app.
		return nil, fmt.Errorf("%w: high-S (not the canonical form)", ErrSignature)
	}
	var identity Identity
	if err := json.Unmarshal(payload, &identity); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnreadableClaim, err)
	}
	if err := v.checkClaims(&identity, now); err != nil {
		return nil, err
	}
	return &identity, nil
}

// Checks 2 to 5, and the validity's length.
func (v *Verifier) checkClaims(identity *Identity, now time.Time) error {
	switch {
	case identity.Issuer != v.Expected.Issuer:
		return fmt.Errorf("%w: %q", ErrIssuer, identity.Issuer)
	// aud is one app, this one; a list naming others too is not "equal to NNUMBERS_APP_ID".
	case len(identity.Audience) != 1 || identity.Audience[0] != v.Expected.AppID:
		return fmt.Errorf("%w: %q", ErrAudience, []string(identity.Audience))
	case identity.Org != v.Expected.OrgID:
		return fmt.Errorf("%w: %q", ErrOrganization, identity.Org)
	case identity.IssuedAt == nil || identity.NotBefore == nil || identity.Expiry == nil:
		return fmt.Errorf("%w: iat, nbf and exp are required", ErrValidity)
	}
	iat, nbf, exp := identity.IssuedAt.Time(), identity.NotBefore.Time(), identity.Expiry.Time()
	if nbf.Before(iat) || exp.Sub(iat) > identityLifetime {
		return fmt.Errorf("%w: iat %d, nbf %d, exp %d", ErrValidity, iat.Unix(), nbf.Unix(), exp.Unix())
	}
	// go-jose's own check of exp, nbf and iat with the tolerance; it knows nothing of org and
	// takes any aud among several, hence the checks above.
	err := identity.Claims.ValidateWithLeeway(jwt.Expected{Time: now}, clockTolerance)
	switch {
	case errors.Is(err, jwt.ErrExpired):
		return fmt.Errorf("%w: exp %d, now %d", ErrExpired, exp.Unix(), now.Unix())
	case errors.Is(err, jwt.ErrNotValidYet), errors.Is(err, jwt.ErrIssuedInTheFuture):
		return fmt.Errorf("%w: nbf %d, now %d", ErrNotYetValid, nbf.Unix(), now.Unix())
	case err != nil:
		return fmt.Errorf("%w: %v", ErrValidity, err)
	}
	return nil
}

// P-256's order halved: a canonical signature's s is at most this.
var halfOrder = new(big.Int).Rsh(elliptic.P256().Params().N, 1)

// lowS says whether a JWS ES256 signature (r || s, 32 bytes each; RFC 7518 §3.4) has s in the
// lower half. go-jose has already checked its length.
func lowS(signature []byte) bool {
	if len(signature) != 64 {
		return false
	}
	return new(big.Int).SetBytes(signature[32:]).Cmp(halfOrder) <= 0
}

// p256 is the key a JWK holds, when it is a P-256 public key for ES256 signatures.
func p256(key jose.JSONWebKey) (*ecdsa.PublicKey, bool) {
	public, ok := key.Key.(*ecdsa.PublicKey)
	if !ok || public.Curve != elliptic.P256() || key.KeyID == "" {
		return nil, false
	}
	if (key.Algorithm != "" && key.Algorithm != string(jose.ES256)) || (key.Use != "" && key.Use != "sig") {
		return nil, false
	}
	return public, true
}

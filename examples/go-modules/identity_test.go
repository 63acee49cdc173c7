package recipe

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// A new app from the sandbox's environment, holding no more keys than the environment's: the
// tests that count JWKS fetches each get their own.
func newApp(t *testing.T) *App {
	t.Helper()
	fresh, err := NewApp(ready.Env)
	if err != nil {
		t.Fatal(err)
	}
	return fresh
}

func TestAValidIdentityIsAPerson(t *testing.T) {
	identity, err := newApp(t).Verifier.Verify(context.Background(), token(t))
	if err != nil {
		t.Fatalf("a valid identity was refused: %v", err)
	}
	if identity.Name != "Ada Lovelace" || identity.PreferredUsername != "ada" || identity.Org != ready.Env.OrgID {
		t.Fatalf("not Ada of the organization: %+v", identity)
	}
}

// Every forgery `zero-sandbox token` makes, each refused for its own reason: by the verifier,
// and by the app reached straight, past the edge (the runtime protocol warns such paths exist).
func TestEveryForgeryIsRefused(t *testing.T) {
	forgeries := []struct {
		name  string
		flags []string
		want  error
	}{
		{"expired", []string{"--expired"}, ErrExpired},
		{"not yet valid", []string{"--not-yet-valid"}, ErrNotYetValid},
		{"other aud", []string{"--aud", "not-" + ready.Env.AppID}, ErrAudience},
		{"other org", []string{"--org", "not-" + ready.Env.OrgID}, ErrOrganization},
		{"other iss", []string{"--iss", ready.Env.Issuer + ".invalid"}, ErrIssuer},
		{"unknown kid", []string{"--unknown-kid"}, ErrUnknownKey},
		{"bad signature", []string{"--bad-signature"}, ErrSignature},
		{"alg none", []string{"--alg-none"}, ErrAlgorithm},
		// Beyond the spec's five checks, as strict as the broker:
		{"crit header", []string{"--crit"}, ErrCritical},
		{"long-lived", []string{"--long-lived"}, ErrValidity},
		{"high-S signature", []string{"--high-s"}, ErrSignature},
	}
	fresh := newApp(t)
	server := httptest.NewServer(fresh)
	defer server.Close()
	for _, forgery := range forgeries {
		t.Run(forgery.name, func(t *testing.T) {
			forged := token(t, forgery.flags...)
			_, err := fresh.Verifier.Verify(context.Background(), forged)
			if !errors.Is(err, forgery.want) {
				t.Fatalf("refused with %v, want %v", err, forgery.want)
			}
			status, body := get(t, server.URL+"/me", http.Header{IdentityHeader: {forged}})
			if status != http.StatusUnauthorized || body != "not a person: "+err.Error() {
				t.Fatalf("the app answered %d %q", status, body)
			}
		})
	}
}

func TestNotAJWSIsRefused(t *testing.T) {
	verifier := newApp(t).Verifier
	for _, garbage := range []string{"", "a.b", "a.b.c.d", "!!.!!.!!", "eyJhbGciOiJFUzI1NiJ9.e30"} {
		if _, err := verifier.Verify(context.Background(), garbage); !errors.Is(err, ErrMalformed) {
			t.Fatalf("%q: %v, want %v", garbage, err, ErrMalformed)
		}
	}
}

// Check 5's 60 s either side of the validity, at the verifier's clock.
func TestTheClockToleranceIsSixtySeconds(t *testing.T) {
	verifier := newApp(t).Verifier
	valid := token(t)
	identity, err := verifier.Verify(context.Background(), valid)
	if err != nil {
		t.Fatal(err)
	}
	nbf, exp := identity.NotBefore.Time(), identity.Expiry.Time()
	if got := exp.Sub(identity.IssuedAt.Time()); got != 5*time.Minute {
		t.Fatalf("an identity is valid for %v, not 5 minutes", got)
	}
	for _, at := range []struct {
		now  time.Time
		want error
	}{
		{nbf.Add(-61 * time.Second), ErrNotYetValid},
		{nbf.Add(-59 * time.Second), nil},
		{exp.Add(59 * time.Second), nil},
		{exp.Add(61 * time.Second), ErrExpired},
	} {
		_, err := verifier.VerifyAt(context.Background(), valid, at.now)
		if (at.want == nil && err != nil) || !errors.Is(err, at.want) {
			t.Fatalf("at nbf%+ds: %v, want %v", at.now.Unix()-nbf.Unix(), err, at.want)
		}
	}
}

// Check 1: an unknown kid sends the app to the broker's JWKS, but not again on every request
// (anyone can send unknown kids): eight at once, then one more, make one fetch.
func TestUnknownKidsFetchTheJWKSOnceNotOnEveryRequest(t *testing.T) {
	verifier := newApp(t).Verifier
	forged := make([]string, 9)
	for i := range forged {
		forged[i] = token(t, "--unknown-kid")
	}
	errs := make([]error, len(forged))
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() { _, errs[i] = verifier.Verify(context.Background(), forged[i]) })
	}
	wg.Wait()
	_, errs[8] = verifier.Verify(context.Background(), forged[8])
	for i, err := range errs {
		if !errors.Is(err, ErrUnknownKey) {
			t.Fatalf("%d: %v, want %v", i, err, ErrUnknownKey)
		}
	}
	if got := verifier.Keys.Fetches.Load(); got != 1 {
		t.Fatalf("%d JWKS fetches for nine unknown kids within %v, want 1", got, DefaultRefetchInterval)
	}
}

func TestABadEnvironmentIsNamed(t *testing.T) {
	for jwks, want := range map[string]string{
		"":                "NNUMBERS_IDENTITY_JWKS: unreadable JWKS",
		`{"keys":[]}`:     "NNUMBERS_IDENTITY_JWKS: the JWKS has no P-256 ES256 key with a kid",
		`{"keys":[{"kty"`: "NNUMBERS_IDENTITY_JWKS: unreadable JWKS",
	} {
		env := ready.Env
		env.IdentityJWKS = jwks
		if _, err := NewApp(env); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Fatalf("JWKS %q: %v, want %q…", jwks, err, want)
		}
	}
}

// Through the edge, as a browser: the app sees who signed in; a header the browser sends
// itself never reaches the app.
func TestThroughTheEdgeTheAppSeesWhoSignedIn(t *testing.T) {
	session := control(t, "POST", "sessions", map[string]any{"person": "ada"}, 201)
	sid := fmt.Sprint(session["sid"])
	t.Cleanup(func() { control(t, "POST", "reset?sid="+sid, nil, 200) })
	cookie := fmt.Sprint(session["cookie"].(map[string]any)["header"])

	status, body := get(t, ready.Edge+"/me", http.Header{"Cookie": {cookie}})
	var me Me
	if status != http.StatusOK || json.Unmarshal([]byte(body), &me) != nil || me.Name != "Ada Lovelace" {
		t.Fatalf("signed in: %d %q", status, body)
	}
	status, body = get(t, ready.Edge+"/me", http.Header{IdentityHeader: {token(t)}})
	if status != http.StatusUnauthorized || body != "sign in first" {
		t.Fatalf("a browser's own header: %d %q", status, body)
	}
}

// A rotated key: the edge's next identity has a kid the app's environment lacks, so the app
// fetches the JWKS once, and keeps the keys for the requests after.
func TestARotatedKeySendsTheAppToTheJWKSOnce(t *testing.T) {
	session := control(t, "POST", "sessions", map[string]any{"person": "ada"}, 201)
	cookie := fmt.Sprint(session["cookie"].(map[string]any)["header"])
	// `reset`, not `reset?sid=`: the keys go back to the app's environment too.
	t.Cleanup(func() { control(t, "POST", "reset", nil, 200) })
	rotated := control(t, "POST", "keys/rotate", map[string]any{}, 200)
	kid, _ := rotated["current"].(string)
	if kid == "" || app.Verifier.Keys.Has(kid) {
		t.Fatalf("the new kid %v should be unknown to the app", rotated["current"])
	}
	// With -count=N the run before this one fetched moments ago, and the refetch interval
	// would hold the new kid off: start as an app that has not fetched yet.
	keys := app.Verifier.Keys
	keys.mu.Lock()
	keys.fetchedAt = time.Time{}
	keys.mu.Unlock()
	fetches := keys.Fetches.Load()
	for range 2 {
		if status, body := get(t, ready.Edge+"/me", http.Header{"Cookie": {cookie}}); status != http.StatusOK {
			t.Fatalf("after the rotation: %d %q", status, body)
		}
	}
	if got := keys.Fetches.Load() - fetches; got != 1 {
		t.Fatalf("%d JWKS fetches, want 1", got)
	}
}

// What the sandbox cannot forge, signed here with a key of the test's own: a JWS that is not
// an nn-identity+jwt (an IAM token, say), and an aud naming this app among others.
func TestOnlyAnIdentityForThisAppAloneIsAPerson(t *testing.T) {
	private, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	verifier := &Verifier{
		Expected: Expected{ready.Env.Issuer, ready.Env.AppID, ready.Env.OrgID},
		Keys:     &KeySet{keys: map[string]*ecdsa.PublicKey{"test": &private.PublicKey}},
	}
	sign := func(typ string, aud ...string) string {
		t.Helper()
		options := (&jose.SignerOptions{}).WithType(jose.ContentType(typ)).WithHeader(jose.HeaderKey("kid"), "test")
		signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: private}, options)
		if err != nil {
			t.Fatal(err)
		}
		now := time.Now()
		claims := Identity{
			Claims: jwt.Claims{
				Issuer: ready.Env.Issuer, Subject: "someone", Audience: aud,
				IssuedAt: jwt.NewNumericDate(now), NotBefore: jwt.NewNumericDate(now),
				Expiry: jwt.NewNumericDate(now.Add(5 * time.Minute)),
			},
			Org: ready.Env.OrgID,
		}
		signed, err := jwt.Signed(signer).Claims(claims).Serialize()
		if err != nil {
			t.Fatal(err)
		}
		return lowSForm(t, signed)
	}
	for _, c := range []struct {
		token string
		want  error
	}{
		{sign("nn-identity+jwt", ready.Env.AppID), nil},
		{sign("JWT", ready.Env.AppID), ErrType},
		{sign("nn-identity+jwt", ready.Env.AppID, "another-app"), ErrAudience},
	} {
		_, err := verifier.Verify(context.Background(), c.token)
		if (c.want == nil && err != nil) || !errors.Is(err, c.want) {
			t.Fatalf("%v, want %v", err, c.want)
		}
	}
}

// lowSForm turns the signature of a compact JWS into its low-S form, as the platform signs:
// Go's ecdsa.Sign leaves s wherever it falls, and the verifier refuses a high S.
func lowSForm(t *testing.T, token string) string {
	t.Helper()
	dot := strings.LastIndexByte(token, '.')
	input, encoded := token[:dot], token[dot+1:]
	signature, err := base64.RawURLEncoding.DecodeString(encoded)
	if err != nil || len(signature) != 64 {
		t.Fatalf("not an ES256 signature: %q", encoded)
	}
	if s := new(big.Int).SetBytes(signature[32:]); s.Cmp(halfOrder) > 0 {
		s.Sub(elliptic.P256().Params().N, s).FillBytes(signature[32:])
	}
	return input + "." + base64.RawURLEncoding.EncodeToString(signature)
}

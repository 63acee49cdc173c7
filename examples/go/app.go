// Package recipe is an app's tests against zero-sandbox in Go, standard library only:
//
//	cd examples/go && go test -count=1 ./...
//
// -count=1 because the result depends on the zero-sandbox binary, which go test's result
// cache cannot see (TestMain finds and starts it).
//
// The app (this file) does what the runtime protocol asks of an app in another language: it
// verifies the ES256 identity in X-NNumbers-Identity with crypto/ecdsa against the JWKS,
// fetches {NNUMBERS_BROKER_URL}/v1/jwks when an unknown kid arrives, and asks the broker how
// many regions there are. GET /regions: 401 without a valid identity, 200 {"regions": n},
// 503 "try again in a moment" when the broker answers QUERYMESH_UNAVAILABLE, 502 for any
// other refusal.
package recipe

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The spec's check 5.
const clockTolerance = 60

var errUnknownKid = errors.New("unknown kid")

// Env is the app's NNUMBERS_* environment.
type Env struct {
	AppID        string `json:"NNUMBERS_APP_ID"`
	OrgID        string `json:"NNUMBERS_ORG_ID"`
	Issuer       string `json:"NNUMBERS_IDENTITY_ISSUER"`
	IdentityJWKS string `json:"NNUMBERS_IDENTITY_JWKS"`
	BrokerURL    string `json:"NNUMBERS_BROKER_URL"`
}

type jwks struct {
	Keys []struct {
		Kty, Crv, X, Y, Kid string
	} `json:"keys"`
}

// PublicKeys reads the P-256 signing keys of a JWKS, by kid.
func PublicKeys(raw []byte) (map[string]*ecdsa.PublicKey, error) {
	var set jwks
	if err := json.Unmarshal(raw, &set); err != nil {
		return nil, fmt.Errorf("unreadable JWKS: %w", err)
	}
	keys := map[string]*ecdsa.PublicKey{}
	for _, k := range set.Keys {
		if k.Kty != "EC" || k.Crv != "P-256" || k.Kid == "" {
			continue
		}
		x, errX := base64.RawURLEncoding.DecodeString(k.X)
		y, errY := base64.RawURLEncoding.DecodeString(k.Y)
		if errX != nil || errY != nil {
			return nil, fmt.Errorf("key %q: bad coordinates", k.Kid)
		}
		key := &ecdsa.PublicKey{Curve: elliptic.P256(), X: new(big.Int).SetBytes(x), Y: new(big.Int).SetBytes(y)}
		if !key.Curve.IsOnCurve(key.X, key.Y) {
			return nil, fmt.Errorf("key %q: not on P-256", k.Kid)
		}
		keys[k.Kid] = key
	}
	return keys, nil
}

// Claims the app checks.
type Claims struct {
	Iss, Aud, Org, Sub, Sid string
	Nbf, Exp                *int64
}

// VerifyIdentity runs the spec's five checks; any error means: not a person.
func VerifyIdentity(token string, keys map[string]*ecdsa.PublicKey, env Env, now int64) (*Claims, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return nil, errors.New("not a compact JWS")
	}
	var header struct{ Alg, Typ, Kid string }
	if err := decodeJSON(parts[0], &header); err != nil {
		return nil, errors.New("unreadable header")
	}
	if header.Alg != "ES256" || header.Typ != "nn-identity+jwt" {
		return nil, errors.New("not an ES256 nn-identity+jwt")
	}
	key, ok := keys[header.Kid]
	if !ok {
		return nil, errUnknownKid
	}
	// JWS carries r || s, 32 bytes each (RFC 7518 section 3.4).
	signature, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(signature) != 64 {
		return nil, errors.New("bad signature")
	}
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	r, s := new(big.Int).SetBytes(signature[:32]), new(big.Int).SetBytes(signature[32:])
	if !ecdsa.Verify(key, digest[:], r, s) {
		return nil, errors.New("bad signature")
	}
	var claims Claims
	if err := decodeJSON(parts[1], &claims); err != nil {
		return nil, errors.New("unreadable claims")
	}
	switch {
	case claims.Iss != env.Issuer:
		return nil, errors.New("another issuer")
	case claims.Aud != env.AppID:
		return nil, errors.New("another app")
	case claims.Org != env.OrgID:
		return nil, errors.New("another organization")
	case claims.Nbf == nil || claims.Exp == nil:
		return nil, errors.New("no validity")
	case now+clockTolerance < *claims.Nbf || now-clockTolerance >= *claims.Exp:
		return nil, errors.New("expired or not yet valid")
	}
	return &claims, nil
}

func decodeJSON(part string, into any) error {
	raw, err := base64.RawURLEncoding.DecodeString(part)
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, into)
}

// App is the app under test.
type App struct {
	env         Env
	http        *http.Client
	mu          sync.RWMutex
	keys        map[string]*ecdsa.PublicKey
	JWKSFetches atomic.Int64
}

// NewApp builds the app from its environment.
func NewApp(env Env) (*App, error) {
	keys, err := PublicKeys([]byte(env.IdentityJWKS))
	if err != nil {
		return nil, err
	}
	return &App{env: env, keys: keys, http: &http.Client{Timeout: 10 * time.Second}}, nil
}

// HasKey says whether the app holds a key with this kid.
func (a *App) HasKey(kid string) bool {
	a.mu.RLock()
	defer a.mu.RUnlock()
	_, ok := a.keys[kid]
	return ok
}

func (a *App) verify(token string) error {
	a.mu.RLock()
	keys := a.keys
	a.mu.RUnlock()
	_, err := VerifyIdentity(token, keys, a.env, time.Now().Unix())
	if !errors.Is(err, errUnknownKid) {
		return err
	}
	// Check 1: an unknown kid sends the app to the broker's JWKS once; the keys are kept,
	// not fetched again on every request.
	answer, err := a.http.Get(a.env.BrokerURL + "/v1/jwks")
	if err != nil {
		return err
	}
	defer answer.Body.Close()
	var raw json.RawMessage
	if err := json.NewDecoder(answer.Body).Decode(&raw); err != nil || answer.StatusCode != 200 {
		return fmt.Errorf("the JWKS answered %d", answer.StatusCode)
	}
	if keys, err = PublicKeys(raw); err != nil {
		return err
	}
	a.mu.Lock()
	a.keys = keys
	a.mu.Unlock()
	a.JWKSFetches.Add(1)
	_, err = VerifyIdentity(token, keys, a.env, time.Now().Unix())
	return err
}

// ServeHTTP answers GET /regions.
func (a *App) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/regions" {
		http.Error(w, "no such page", http.StatusNotFound)
		return
	}
	status, body := a.regions(r.Header.Get("X-NNumbers-Identity"))
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

func (a *App) regions(identity string) (int, string) {
	if identity == "" {
		return 401, "sign in first"
	}
	if err := a.verify(identity); err != nil {
		return 401, "not a person: " + err.Error()
	}
	query, _ := json.Marshal(map[string]string{"sql": "SELECT count(*) FROM tpch.tiny.region"})
	request, err := http.NewRequest("POST", a.env.BrokerURL+"/v1/querymesh/query", bytes.NewReader(query))
	if err != nil {
		return 502, "the broker did not answer"
	}
	request.Header.Set("X-NNumbers-Identity", identity)
	request.Header.Set("Content-Type", "application/json")
	answer, err := a.http.Do(request)
	if err != nil {
		return 502, "the broker did not answer"
	}
	defer answer.Body.Close()
	var body struct {
		Code string
		Rows [][]json.Number
	}
	decoder := json.NewDecoder(answer.Body)
	decoder.UseNumber()
	_ = decoder.Decode(&body)
	switch {
	case answer.StatusCode == 200 && len(body.Rows) == 1 && len(body.Rows[0]) == 1:
		return 200, fmt.Sprintf(`{"regions":%s}`, body.Rows[0][0])
	case answer.StatusCode == 503 && body.Code == "QUERYMESH_UNAVAILABLE":
		return 503, "try again in a moment"
	case body.Code != "":
		return 502, "the broker refused: " + body.Code
	default:
		return 502, "the broker refused: ?"
	}
}

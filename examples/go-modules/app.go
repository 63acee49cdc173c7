package recipe

import (
	"encoding/json"
	"net/http"
	"time"
)

// Env is the app's NNUMBERS_* environment (the `env` of `zero-sandbox up --ready-json`).
type Env struct {
	AppID        string `json:"NNUMBERS_APP_ID"`
	OrgID        string `json:"NNUMBERS_ORG_ID"`
	Issuer       string `json:"NNUMBERS_IDENTITY_ISSUER"`
	IdentityJWKS string `json:"NNUMBERS_IDENTITY_JWKS"`
	BrokerURL    string `json:"NNUMBERS_BROKER_URL"`
}

// App is the app under test. GET /me answers 200 with who signed in, 401 "sign in first"
// without an identity and 401 "not a person: …" with one that does not check out.
type App struct {
	Verifier *Verifier
}

// NewApp builds the app from its environment.
func NewApp(env Env) (*App, error) {
	keys, err := NewKeySet(env.IdentityJWKS, env.BrokerURL, &http.Client{Timeout: 10 * time.Second})
	if err != nil {
		return nil, err
	}
	expected := Expected{Issuer: env.Issuer, AppID: env.AppID, OrgID: env.OrgID}
	return &App{Verifier: &Verifier{Expected: expected, Keys: keys}}, nil
}

// Me is what GET /me answers for a person.
type Me struct {
	Sub      string `json:"sub"`
	Name     string `json:"name,omitempty"`
	Username string `json:"preferred_username,omitempty"`
}

// ServeHTTP answers GET /me.
func (a *App) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/me" {
		http.Error(w, "no such page", http.StatusNotFound)
		return
	}
	// Without the header the request is anonymous; with it, every check must pass.
	token := r.Header.Get(IdentityHeader)
	if token == "" {
		http.Error(w, "sign in first", http.StatusUnauthorized)
		return
	}
	identity, err := a.Verifier.Verify(r.Context(), token)
	if err != nil {
		http.Error(w, "not a person: "+err.Error(), http.StatusUnauthorized)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(Me{Sub: identity.Subject, Name: identity.Name, Username: identity.PreferredUsername})
}

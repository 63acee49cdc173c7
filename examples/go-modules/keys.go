package recipe

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// DefaultRefetchInterval is the least time between two fetches of the JWKS. The runtime
// protocol's check 1 sends the app to the broker when an unknown kid arrives, but not on every
// request: anyone can send unknown kids, and a rotated key stays unknown for at most this long.
const DefaultRefetchInterval = 30 * time.Second

// The most of a JWKS read; the broker's is a few hundred bytes.
const maxJWKSBytes = 1 << 20

// KeySet holds the broker's identity keys by kid: NNUMBERS_IDENTITY_JWKS to start with, then
// {NNUMBERS_BROKER_URL}/v1/jwks whenever a kid arrives that it does not hold.
type KeySet struct {
	url             string
	client          *http.Client
	refetchInterval time.Duration

	fetching  sync.Mutex // held across a fetch: one at a time
	mu        sync.Mutex // guards keys and fetchedAt
	keys      map[string]*ecdsa.PublicKey
	fetchedAt time.Time // zero: never fetched

	// Fetches counts the JWKS fetches, for tests.
	Fetches atomic.Int64
}

// NewKeySet reads the JWKS of the environment; brokerURL is where to fetch it again.
func NewKeySet(jwks, brokerURL string, client *http.Client) (*KeySet, error) {
	keys, err := parseJWKS([]byte(jwks))
	if err != nil {
		return nil, fmt.Errorf("NNUMBERS_IDENTITY_JWKS: %w", err)
	}
	return &KeySet{
		url:             brokerURL + "/v1/jwks",
		client:          client,
		refetchInterval: DefaultRefetchInterval,
		keys:            keys,
	}, nil
}

// Has says whether the set holds kid now, without fetching.
func (s *KeySet) Has(kid string) bool {
	_, _, ok := s.lookup(kid)
	return ok
}

// Key is the key kid names, fetching the JWKS once if kid is unknown and the last fetch is
// older than the refetch interval. Requests with known kids never wait for a fetch; requests
// with the same new kid wait for one fetch, not one each.
func (s *KeySet) Key(ctx context.Context, kid string) (*ecdsa.PublicKey, error) {
	if key, _, ok := s.lookup(kid); ok {
		return key, nil
	}
	s.fetching.Lock()
	defer s.fetching.Unlock()
	// Another request may have fetched while this one waited.
	key, fetchedAt, ok := s.lookup(kid)
	if ok {
		return key, nil
	}
	if !fetchedAt.IsZero() && time.Since(fetchedAt) < s.refetchInterval {
		return nil, fmt.Errorf("%w: kid %q", ErrUnknownKey, kid)
	}
	keys, err := s.fetch(ctx)
	s.mu.Lock()
	s.fetchedAt = time.Now()
	if err == nil {
		// The broker's set replaces the old one: a key it no longer publishes is trusted no more.
		s.keys = keys
	}
	s.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("%w: kid %q, and the JWKS could not be fetched: %v", ErrUnknownKey, kid, err)
	}
	if key, ok := keys[kid]; ok {
		return key, nil
	}
	return nil, fmt.Errorf("%w: kid %q", ErrUnknownKey, kid)
}

func (s *KeySet) lookup(kid string) (*ecdsa.PublicKey, time.Time, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key, ok := s.keys[kid]
	return key, s.fetchedAt, ok
}

func (s *KeySet) fetch(ctx context.Context) (map[string]*ecdsa.PublicKey, error) {
	s.Fetches.Add(1)
	request, err := http.NewRequestWithContext(ctx, http.MethodGet, s.url, nil)
	if err != nil {
		return nil, err
	}
	answer, err := s.client.Do(request)
	if err != nil {
		return nil, err
	}
	defer answer.Body.Close()
	body, err := io.ReadAll(io.LimitReader(answer.Body, maxJWKSBytes))
	if err != nil {
		return nil, err
	}
	if answer.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s answered %d", s.url, answer.StatusCode)
	}
	return parseJWKS(body)
}

// parseJWKS keeps the P-256 ES256 signing keys of a JWKS (go-jose checks each point is on
// its curve); a set without one is an error, since no identity could ever verify.
func parseJWKS(raw []byte) (map[string]*ecdsa.PublicKey, error) {
	var set jose.JSONWebKeySet
	if err := json.Unmarshal(raw, &set); err != nil {
		return nil, fmt.Errorf("unreadable JWKS: %w", err)
	}
	keys := map[string]*ecdsa.PublicKey{}
	for _, key := range set.Keys {
		if public, ok := p256(key); ok {
			keys[key.KeyID] = public
		}
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("the JWKS has no P-256 ES256 key with a kid")
	}
	return keys, nil
}

// Source files and tool outputs for the bundled samples (scripts/gen-samples.ts): a Go auth package for the
// 37.1 story and a small TypeScript route for the cache-break session. Written for the samples; deterministic.

const CLAIMS = [
  ['Subject', 'sub', 'the user id the session belongs to'],
  ['Family', 'fam', 'the refresh-token family; rotating any member revokes the others'],
  ['Device', 'dev', 'the device fingerprint recorded at login'],
  ['Scope', 'scp', 'space-separated OAuth scopes granted at login'],
  ['Tenant', 'ten', 'the tenant the user logged into'],
  ['Issuer', 'iss', 'the issuer that minted the access token'],
  ['Audience', 'aud', 'the API audience of the access token'],
  ['AuthTime', 'ath', 'when the user last authenticated interactively'],
  ['AMR', 'amr', 'authentication methods used (pwd, otp, webauthn)'],
  ['IP', 'ipa', 'the client address seen at the last refresh'],
] as const;

/** internal/auth/session.go: 412 lines, about 18 KB. */
export function sessionGo(): string {
  const head = `// Package auth implements browser sessions backed by rotating refresh tokens.
//
// A Session pairs a short-lived access token with a refresh token. Refresh tokens
// rotate on every use and belong to a family: presenting a token that was already
// rotated revokes the whole family (reuse detection, RFC 6819 §5.2.2.3).
package auth

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/acme/tollgate/internal/clock"
	"github.com/acme/tollgate/internal/metrics"
)

// Session is one logged-in browser. It is safe to read concurrently; Refresh
// mutates it and must be serialised by the caller (see Store.Load).
type Session struct {
	ID        string
	UserID    string
	FamilyID  string
	CreatedAt time.Time

	access    AccessToken
	refresh   RefreshToken
	expiresAt time.Time
	claims    Claims

	rotator *Rotator
	store   *Store
	clock   clock.Clock
	log     *slog.Logger
}

const refreshLeeway = 90 * time.Second

// Options configure NewSession.
type Options struct {
	AccessTTL  time.Duration
	RefreshTTL time.Duration
	Clock      clock.Clock
	Logger     *slog.Logger
}

// NewSession creates a session for a freshly authenticated user.
func NewSession(ctx context.Context, st *Store, rot *Rotator, c Claims, o Options) (*Session, error) {
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("auth: new session: %w", err)
	}
	if o.Clock == nil {
		o.Clock = clock.Real()
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	access, err := rot.MintAccess(ctx, c, o.AccessTTL)
	if err != nil {
		return nil, fmt.Errorf("auth: mint access token: %w", err)
	}
	refresh, err := rot.MintRefresh(ctx, c.Family, o.RefreshTTL)
	if err != nil {
		return nil, fmt.Errorf("auth: mint refresh token: %w", err)
	}
	s := &Session{
		ID:        newID(),
		UserID:    c.Subject,
		FamilyID:  c.Family,
		CreatedAt: o.Clock.Now(),
		access:    access,
		refresh:   refresh,
		expiresAt: o.Clock.Now().Add(o.AccessTTL),
		claims:    c,
		rotator:   rot,
		store:     st,
		clock:     o.Clock,
		log:       o.Logger.With("session", newID()),
	}
	if err := st.Save(ctx, s); err != nil {
		return nil, fmt.Errorf("auth: save session: %w", err)
	}
	metrics.SessionsCreated.Inc()
	return s, nil
}

// Claims are the facts a session asserts about its user.
type Claims struct {
${CLAIMS.map(([name, , doc]) => `\t// ${name} is ${doc}.\n\t${name} ${name === 'AuthTime' ? 'time.Time' : name === 'AMR' ? '[]string' : 'string'}`).join('\n')}
}
`;
  const validators = CLAIMS.map(
    ([name, short, doc]) => `
// validate${name} checks the ${short} claim (${doc}).
func (c Claims) validate${name}() error {
	${
    name === 'AuthTime'
      ? `if c.AuthTime.IsZero() {
		return &ClaimError{Claim: "${short}", Reason: "missing"}
	}
	if c.AuthTime.After(time.Now().Add(time.Minute)) {
		return &ClaimError{Claim: "${short}", Reason: "in the future"}
	}`
      : name === 'AMR'
        ? `if len(c.AMR) == 0 {
		return &ClaimError{Claim: "${short}", Reason: "missing"}
	}
	for _, m := range c.AMR {
		if !knownAMR[m] {
			return &ClaimError{Claim: "${short}", Reason: fmt.Sprintf("unknown method %q", m)}
		}
	}`
        : `if strings.TrimSpace(c.${name}) == "" {
		return &ClaimError{Claim: "${short}", Reason: "missing"}
	}
	if len(c.${name}) > maxClaimLen {
		return &ClaimError{Claim: "${short}", Reason: fmt.Sprintf("longer than %d bytes", maxClaimLen)}
	}`
  }
	return nil
}`,
  ).join('\n');
  const refresh = `

// Validate reports the first invalid claim.
func (c Claims) Validate() error {
	for _, check := range []func() error{
${CLAIMS.map(([name]) => `\t\tc.validate${name},`).join('\n')}
	} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// ClaimError names the claim that failed validation.
type ClaimError struct {
	Claim  string
	Reason string
}

func (e *ClaimError) Error() string { return "auth: claim " + e.Claim + ": " + e.Reason }

const maxClaimLen = 512

var knownAMR = map[string]bool{"pwd": true, "otp": true, "webauthn": true, "sso": true}

// expiresSoon reports whether the access token expires within the leeway.
func (s *Session) expiresSoon() bool {
	return s.clock.Until(s.expiresAt) < refreshLeeway
}

// Refresh rotates the refresh token and mints a new access token when the
// current one is about to expire. It is a no-op otherwise.
//
// BUG(dev): two concurrent callers can both see expiresSoon() and both rotate;
// the second rotation presents an already-rotated token and revokes the family.
func (s *Session) Refresh(ctx context.Context) error {
	if !s.expiresSoon() {
		return nil
	}
	start := s.clock.Now()
	next, err := s.rotator.RotateRefresh(ctx, s.refresh)
	if errors.Is(err, ErrTokenReused) {
		s.log.Warn("refresh token reuse detected; revoking family", "family", s.FamilyID)
		if rerr := s.store.RotateFamily(ctx, s.FamilyID); rerr != nil {
			s.log.Error("revoke family failed", "err", rerr)
		}
		metrics.FamiliesRevoked.Inc()
		return ErrSessionExpired
	}
	if err != nil {
		return fmt.Errorf("auth: rotate refresh token: %w", err)
	}
	access, err := s.rotator.MintAccess(ctx, s.claims, s.rotator.AccessTTL())
	if err != nil {
		return fmt.Errorf("auth: mint access token: %w", err)
	}
	s.refresh = next
	s.access = access
	s.expiresAt = s.clock.Now().Add(s.rotator.AccessTTL())
	if err := s.store.Save(ctx, s); err != nil {
		return fmt.Errorf("auth: save session: %w", err)
	}
	metrics.RefreshLatency.Observe(s.clock.Since(start).Seconds())
	return nil
}

// Access returns the current access token, refreshing it first when needed.
func (s *Session) Access(ctx context.Context) (AccessToken, error) {
	if err := s.Refresh(ctx); err != nil {
		return AccessToken{}, err
	}
	return s.access, nil
}

// Revoke ends the session and revokes its refresh-token family.
func (s *Session) Revoke(ctx context.Context) error {
	if err := s.store.RotateFamily(ctx, s.FamilyID); err != nil {
		return fmt.Errorf("auth: revoke: %w", err)
	}
	return s.store.Delete(ctx, s.ID)
}

// Cookie renders the session cookie.
func (s *Session) Cookie(secure bool) *http.Cookie {
	return &http.Cookie{
		Name:     "tg_session",
		Value:    s.ID,
		Path:     "/",
		Expires:  s.CreatedAt.Add(s.rotator.RefreshTTL()),
		HttpOnly: true,
		Secure:   secure,
		SameSite: http.SameSiteLaxMode,
	}
}

// sweep revokes refresh tokens of sessions that were idle past their TTL.
func (s *Store) sweep(ctx context.Context, now time.Time) (int, error) {
	ids, err := s.idleSince(ctx, now.Add(-s.refreshTTL))
	if err != nil {
		return 0, err
	}
	n := 0
	for _, id := range ids {
		tok, err := s.refreshOf(ctx, id)
		if err != nil {
			continue
		}
		if _, err := s.rotator.RotateRefresh(ctx, tok); err != nil {
			s.log.Debug("sweep: rotate failed", "session", id, "err", err)
			continue
		}
		n++
	}
	return n, nil
}

var idMu sync.Mutex

func newID() string {
	idMu.Lock()
	defer idMu.Unlock()
	return randomID(24)
}
`;
  let out = head + validators + refresh;
  // Pad with the per-claim accessors the real file carries, up to 412 lines.
  let i = 0;
  while (out.split('\n').length < 412) {
    const [name, short] = CLAIMS[i % CLAIMS.length];
    const kind = i < CLAIMS.length ? 'get' : 'has';
    out +=
      kind === 'get'
        ? `\n// ${name} returns the session's ${short} claim.\nfunc (s *Session) ${name}() ${name === 'AuthTime' ? 'time.Time' : name === 'AMR' ? '[]string' : 'string'} { return s.claims.${name} }\n`
        : `\n// Has${name} reports whether the ${short} claim is set.\nfunc (s *Session) Has${name}() bool {\n\treturn ${name === 'AuthTime' ? '!s.claims.AuthTime.IsZero()' : `len(s.claims.${name}) > 0`}\n}\n`;
    i++;
  }
  return out.split('\n').slice(0, 412).join('\n');
}

/** The first 160 lines of internal/auth/token.go (as `sed -n '1,160p'` prints them). */
export function tokenGo(): string {
  const lines = `package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"time"
)

// ErrTokenReused is returned when a refresh token that was already rotated is
// presented again. Callers must treat the whole family as compromised.
var ErrTokenReused = errors.New("auth: refresh token reused")

// ErrSessionExpired is returned when a session can no longer be refreshed.
var ErrSessionExpired = errors.New("auth: session expired")

// RefreshToken is an opaque, single-use token. Only its hash is stored.
type RefreshToken struct {
	Family  string
	Value   string
	Expires time.Time
}

// AccessToken is a signed, short-lived bearer token.
type AccessToken struct {
	Value   string
	Expires time.Time
}

// Rotator mints and rotates tokens against a TokenStore.
type Rotator struct {
	tokens     TokenStore
	signer     Signer
	accessTTL  time.Duration
	refreshTTL time.Duration
	now        func() time.Time
}

// TokenStore persists refresh-token hashes by family.
type TokenStore interface {
	// Current returns the hash of the live token of a family.
	Current(ctx context.Context, family string) (hash string, expires time.Time, err error)
	// Swap replaces the live hash if it still equals old (compare-and-swap).
	Swap(ctx context.Context, family, old, next string, expires time.Time) (bool, error)
	// Revoke deletes the family.
	Revoke(ctx context.Context, family string) error
}

// Signer signs access tokens.
type Signer interface {
	Sign(ctx context.Context, c Claims, expires time.Time) (string, error)
}

func NewRotator(ts TokenStore, sg Signer, accessTTL, refreshTTL time.Duration) *Rotator {
	return &Rotator{tokens: ts, signer: sg, accessTTL: accessTTL, refreshTTL: refreshTTL, now: time.Now}
}

func (r *Rotator) AccessTTL() time.Duration  { return r.accessTTL }
func (r *Rotator) RefreshTTL() time.Duration { return r.refreshTTL }

// MintAccess signs a new access token for the claims.
func (r *Rotator) MintAccess(ctx context.Context, c Claims, ttl time.Duration) (AccessToken, error) {
	exp := r.now().Add(ttl)
	v, err := r.signer.Sign(ctx, c, exp)
	if err != nil {
		return AccessToken{}, err
	}
	return AccessToken{Value: v, Expires: exp}, nil
}

// MintRefresh starts a family with its first refresh token.
func (r *Rotator) MintRefresh(ctx context.Context, family string, ttl time.Duration) (RefreshToken, error) {
	v, err := randomToken()
	if err != nil {
		return RefreshToken{}, err
	}
	exp := r.now().Add(ttl)
	if _, err := r.tokens.Swap(ctx, family, "", hash(v), exp); err != nil {
		return RefreshToken{}, err
	}
	return RefreshToken{Family: family, Value: v, Expires: exp}, nil
}

// RotateRefresh exchanges old for a new token of the same family. Presenting a
// token that is no longer the live one revokes the family and returns
// ErrTokenReused: this is what logs a user out when two refreshes race.
func (r *Rotator) RotateRefresh(ctx context.Context, old RefreshToken) (RefreshToken, error) {
	if r.now().After(old.Expires) {
		return RefreshToken{}, ErrSessionExpired
	}
	live, _, err := r.tokens.Current(ctx, old.Family)
	if err != nil {
		return RefreshToken{}, fmt.Errorf("current: %w", err)
	}
	if live != hash(old.Value) {
		if rerr := r.tokens.Revoke(ctx, old.Family); rerr != nil {
			return RefreshToken{}, errors.Join(ErrTokenReused, rerr)
		}
		return RefreshToken{}, ErrTokenReused
	}
	next, err := r.rotateLocked(ctx, old)
	if err != nil {
		return RefreshToken{}, err
	}
	return next, nil
}

// rotateLocked swaps the live hash; a lost compare-and-swap means another
// caller rotated first, which is reported as reuse.
func (r *Rotator) rotateLocked(ctx context.Context, old RefreshToken) (RefreshToken, error) {
	v, err := randomToken()
	if err != nil {
		return RefreshToken{}, err
	}
	exp := r.now().Add(r.refreshTTL)
	ok, err := r.tokens.Swap(ctx, old.Family, hash(old.Value), hash(v), exp)
	if err != nil {
		return RefreshToken{}, fmt.Errorf("swap: %w", err)
	}
	if !ok {
		return RefreshToken{}, ErrTokenReused
	}
	return RefreshToken{Family: old.Family, Value: v, Expires: exp}, nil
}

func randomToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

func randomID(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)[:n]
}

func hash(v string) string {
	h := sha256.Sum256([]byte(v))
	return base64.RawURLEncoding.EncodeToString(h[:])
}

// reuseWindow is how long a just-rotated token is still accepted from the
// same device (grace period for lost responses). Zero disables it.
var reuseWindow = 0 * time.Second`.split('\n');
  return lines.slice(0, 160).join('\n');
}

/** internal/auth/session_test.go (about 7 KB). */
export function sessionTestGo(): string {
  const cases = CLAIMS.map(
    ([name, short]) =>
      `\t\t{name: "missing ${short}", mutate: func(c *Claims) { c.${name} = ${name === 'AuthTime' ? 'time.Time{}' : name === 'AMR' ? 'nil' : '""'} }, wantClaim: "${short}"},`,
  ).join('\n');
  return `package auth

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/acme/tollgate/internal/clock"
)

func testClaims() Claims {
	return Claims{
		Subject:  "u_41d2",
		Family:   "fam_9c0e",
		Device:   "dev_chrome_mac",
		Scope:    "profile billing:read",
		Tenant:   "acme",
		Issuer:   "https://auth.acme.test",
		Audience: "tollgate-api",
		AuthTime: time.Date(2025, 10, 14, 8, 0, 0, 0, time.UTC),
		AMR:      []string{"pwd", "otp"},
		IP:       "203.0.113.7",
	}
}

func newTestSession(t *testing.T, clk *clock.Fake) (*Session, *memTokens) {
	t.Helper()
	toks := newMemTokens()
	rot := NewRotator(toks, fakeSigner{}, 10*time.Minute, 30*24*time.Hour)
	rot.now = clk.Now
	st := newMemStore(rot)
	s, err := NewSession(context.Background(), st, rot, testClaims(), Options{
		AccessTTL:  10 * time.Minute,
		RefreshTTL: 30 * 24 * time.Hour,
		Clock:      clk,
	})
	if err != nil {
		t.Fatalf("NewSession: %v", err)
	}
	return s, toks
}

func TestClaimsValidate(t *testing.T) {
	tests := []struct {
		name      string
		mutate    func(*Claims)
		wantClaim string
	}{
		{name: "valid", mutate: func(*Claims) {}},
${cases}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := testClaims()
			tt.mutate(&c)
			err := c.Validate()
			if tt.wantClaim == "" {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			var ce *ClaimError
			if !errors.As(err, &ce) || ce.Claim != tt.wantClaim {
				t.Fatalf("Validate() = %v, want claim %q", err, tt.wantClaim)
			}
		})
	}
}

func TestRefreshNoopWhenFresh(t *testing.T) {
	clk := clock.NewFake(time.Date(2025, 10, 14, 9, 0, 0, 0, time.UTC))
	s, toks := newTestSession(t, clk)
	before := toks.rotations
	if err := s.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if toks.rotations != before {
		t.Fatalf("rotated %d times, want 0", toks.rotations-before)
	}
}

func TestRefreshRotatesNearExpiry(t *testing.T) {
	clk := clock.NewFake(time.Date(2025, 10, 14, 9, 0, 0, 0, time.UTC))
	s, toks := newTestSession(t, clk)
	clk.Advance(9 * time.Minute)
	if err := s.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if toks.rotations != 1 {
		t.Fatalf("rotations = %d, want 1", toks.rotations)
	}
}

func TestRefreshConcurrent(t *testing.T) {
	clk := clock.NewFake(time.Date(2025, 10, 14, 9, 0, 0, 0, time.UTC))
	s, toks := newTestSession(t, clk)
	clk.Advance(9 * time.Minute)
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			errs[i] = s.Refresh(context.Background())
		}(i)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("caller %d: %v", i, err)
		}
	}
	if toks.rotations != 1 {
		t.Fatalf("expected 1 rotation, got %d", toks.rotations)
	}
	if toks.revoked[s.FamilyID] {
		t.Fatal("family revoked: a concurrent refresh presented a rotated token")
	}
}

func TestRevoke(t *testing.T) {
	clk := clock.NewFake(time.Date(2025, 10, 14, 9, 0, 0, 0, time.UTC))
	s, toks := newTestSession(t, clk)
	if err := s.Revoke(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !toks.revoked[s.FamilyID] {
		t.Fatal("family not revoked")
	}
}`;
}

const PKG = 'github.com/acme/tollgate/internal/auth';

/** `go test` output for step n of the story: races and failures first, green at the end. */
export function goTestRace(n: number): string {
  const race = (g1: number, g2: number, line: number) => `==================
WARNING: DATA RACE
Write at 0x00c0001840f8 by goroutine ${g1}:
  ${PKG}.(*Session).Refresh()
      /home/dev/src/tollgate/internal/auth/session.go:${line} +0x2a4
  ${PKG}.TestRefreshConcurrent.func1()
      /home/dev/src/tollgate/internal/auth/session_test.go:128 +0x8c

Previous read at 0x00c0001840f8 by goroutine ${g2}:
  ${PKG}.(*Session).expiresSoon()
      /home/dev/src/tollgate/internal/auth/session.go:188 +0x44
  ${PKG}.(*Session).Refresh()
      /home/dev/src/tollgate/internal/auth/session.go:199 +0x3c
  ${PKG}.TestRefreshConcurrent.func1()
      /home/dev/src/tollgate/internal/auth/session_test.go:128 +0x8c

Goroutine ${g1} (running) created at:
  ${PKG}.TestRefreshConcurrent()
      /home/dev/src/tollgate/internal/auth/session_test.go:126 +0x1b0
  testing.tRunner()
      /usr/local/go/src/testing/testing.go:1690 +0x226
  testing.(*T).Run.gowrap1()
      /usr/local/go/src/testing/testing.go:1743 +0x44

Goroutine ${g2} (finished) created at:
  ${PKG}.TestRefreshConcurrent()
      /home/dev/src/tollgate/internal/auth/session_test.go:126 +0x1b0
  testing.tRunner()
      /usr/local/go/src/testing/testing.go:1690 +0x226
==================`;
  const okAll = `ok  \tgithub.com/acme/tollgate/cmd/tollgate\t0.031s [no test files]
ok  \tgithub.com/acme/tollgate/internal/api\t1.902s
ok  \t${PKG}\t2.417s
ok  \tgithub.com/acme/tollgate/internal/billing\t0.884s
ok  \tgithub.com/acme/tollgate/internal/clock\t0.012s
ok  \tgithub.com/acme/tollgate/internal/config\t0.020s
ok  \tgithub.com/acme/tollgate/internal/metrics\t0.015s
ok  \tgithub.com/acme/tollgate/internal/store\t3.114s`;
  switch (n) {
    case 0:
      return `${race(23, 22, 214)}\n${race(27, 24, 215)}\n--- FAIL: TestRefreshConcurrent (0.01s)\n    testing.go:1399: race detected during execution of test\n    session_test.go:137: caller 3: auth: session expired\n    session_test.go:137: caller 6: auth: session expired\n    session_test.go:141: expected 1 rotation, got 4\nFAIL\nFAIL\t${PKG}\t0.412s\nFAIL`;
    case 1:
      return `${race(19, 18, 216)}\n--- FAIL: TestRefreshConcurrent (0.01s)\n    testing.go:1399: race detected during execution of test\n    session_test.go:141: expected 1 rotation, got 2\nFAIL\nFAIL\t${PKG}\t0.288s\nFAIL`;
    case 2:
      return `--- FAIL: TestRefreshConcurrent (0.00s)\n    session_test.go:137: caller 1: auth: session expired\n    session_test.go:141: expected 1 rotation, got 2\n    session_test.go:144: family revoked: a concurrent refresh presented a rotated token\nFAIL\nFAIL\t${PKG}\t0.197s\nFAIL`;
    case 3:
      return `--- FAIL: TestRefreshConcurrent (0.00s)\n    session_test.go:141: expected 1 rotation, got 2\nFAIL\nFAIL\t${PKG}\t0.233s\nFAIL`;
    case 4:
      return `--- FAIL: TestRefreshConcurrent (0.00s)\n    session_test.go:141: expected 1 rotation, got 2\nFAIL\nFAIL\t${PKG}\t1.121s\n--- FAIL: TestRefreshConcurrent (0.00s)\n    session_test.go:141: expected 1 rotation, got 2\nFAIL\nFAIL\t${PKG}\t1.087s\nok  \t${PKG}\t0.212s\nok  \t${PKG}\t0.208s\nok  \t${PKG}\t0.215s\nFAIL`;
    case 5:
    case 6:
      return `ok  \t${PKG}\t${n === 5 ? '1.306' : '4.882'}s`;
    case 7:
      return `ok  \tgithub.com/acme/tollgate/cmd/tollgate\t0.031s [no test files]\n--- FAIL: TestMiddlewareRefreshInFlight (0.02s)\n${middlewareLog()}\n    middleware_test.go:131: status = 500, want 303 (redirect to /login)\n    middleware_test.go:132: body: internal error: auth: refresh already in flight\nFAIL\nFAIL\tgithub.com/acme/tollgate/internal/api\t1.944s\nok  \t${PKG}\t2.388s\nok  \tgithub.com/acme/tollgate/internal/billing\t0.871s\nok  \tgithub.com/acme/tollgate/internal/clock\t0.012s\nok  \tgithub.com/acme/tollgate/internal/config\t0.020s\nok  \tgithub.com/acme/tollgate/internal/metrics\t0.015s\nok  \tgithub.com/acme/tollgate/internal/store\t3.097s\nFAIL`;
    case 8:
      return 'ok  \tgithub.com/acme/tollgate/internal/api\t1.907s';
    default:
      return okAll;
  }
}

/** The handler log a failing middleware test prints (t.Logf of each slog record). */
function middlewareLog(): string {
  const out: string[] = [];
  const paths = ['/api/invoices', '/api/invoices/inv_77f1', '/api/me', '/api/billing/portal', '/api/invoices?page=2'];
  for (let i = 0; i < 36; i++) {
    const p = paths[i % paths.length];
    const ms = 3 + ((i * 37) % 41);
    const rid = `req_${(0x5a17c3 + i * 7919).toString(16)}`;
    out.push(
      `    middleware_test.go:98: {"time":"2025-10-14T09:31:${String(10 + i).padStart(2, '0')}.${String(100 + ((i * 53) % 900)).padStart(3, '0')}Z","level":"${i % 6 === 5 ? 'WARN' : 'INFO'}","msg":"${i % 6 === 5 ? 'refresh in flight; waiting' : 'request'}","request_id":"${rid}","method":"GET","path":"${p}","session":"s_${(i % 3) + 1}","family":"fam_9c0e","status":${i % 6 === 5 ? 0 : 200},"duration_ms":${ms}}`,
    );
  }
  return out.join('\n');
}

/** src/routes/upload.ts (or, with `test`, test/upload.test.ts) of the cache-break session. */
export function uploadTs(test = false): string {
  if (test)
    return `import { describe, expect, it } from 'vitest';
import { loginAs, tiny, big } from './helpers';

describe('POST /uploads', () => {
  it('stores a small file and returns its id', async () => {
    const agent = await loginAs('ana');
    const res = await agent.post('/uploads').attach('file', tiny).expect(201);
    expect(res.body.id).toMatch(/^upl_[a-z0-9]{12}$/);
  });

  it('rejects files over 25 MB with 413', async () => {
    const agent = await loginAs('ana');
    await agent.post('/uploads').attach('file', big).expect(413);
  });

  it('requires a user', async () => {
    await request(app).post('/uploads').attach('file', tiny).expect(401);
  });

  it('deduplicates identical content by sha256', async () => {
    const agent = await loginAs('ana');
    const a = await agent.post('/uploads').attach('file', tiny).expect(201);
    const b = await agent.post('/uploads').attach('file', tiny).expect(201);
    expect(b.body.id).toBe(a.body.id);
  });
});`;
  return `import { Router } from 'express';
import multer from 'multer';
import { createHash } from 'node:crypto';
import { requireUser } from '../middleware/auth';
import { rateLimit } from '../middleware/rateLimit';
import { blobs } from '../storage/blobs';
import { uploadsTable } from '../db/uploads';

const MAX_BYTES = 25 * 1024 * 1024;
const upload = multer({ limits: { fileSize: MAX_BYTES }, storage: multer.memoryStorage() });

export const router = Router();

/** Store one file for the current user; identical content is stored once (sha256). */
export async function uploadHandler(req, res) {
  const file = req.file;
  if (!file) {
    res.status(400).json({ error: 'missing_file' });
    return;
  }
  const sha = createHash('sha256').update(file.buffer).digest('hex');
  const existing = await uploadsTable.findBySha(req.user.id, sha);
  if (existing) {
    res.status(201).json({ id: existing.id, deduplicated: true });
    return;
  }
  const key = \`u/\${req.user.id}/\${sha.slice(0, 2)}/\${sha}\`;
  await blobs.put(key, file.buffer, { contentType: file.mimetype });
  const row = await uploadsTable.insert({
    userId: req.user.id,
    sha,
    key,
    bytes: file.size,
    name: file.originalname,
    contentType: file.mimetype,
  });
  res.status(201).json({ id: row.id });
}

router.use((err, _req, res, next) => {
  if (err?.code === 'LIMIT_FILE_SIZE') {
    res.status(413).json({ error: 'too_large', maxBytes: MAX_BYTES });
    return;
  }
  next(err);
});

router.post('/uploads', requireUser, upload.single('file'), uploadHandler);
router.get('/uploads/:id', requireUser, async (req, res) => {
  const row = await uploadsTable.get(req.params.id);
  if (!row || row.userId !== req.user.id) {
    res.status(404).json({ error: 'not_found' });
    return;
  }
  res.json(row);
});`;
}

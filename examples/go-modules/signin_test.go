package recipe

import (
	"errors"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/oauth2"
)

// The realm has one client, the platform's public login client, whose one registered
// redirect URI is the edge's callback (on either loopback name). The tests sign in as that
// client and stop at the redirect, so the code never reaches the edge: the Go code does what
// the edge would.
const (
	clientID     = "nnumbers-edge"
	callbackPath = "/.nnumbers/auth/callback"
)

func newSignIn(t *testing.T) *SignIn {
	t.Helper()
	signIn, err := NewSignIn(t.Context(), ready.IAM+"/realms/acme", clientID, ready.Edge+callbackPath, client)
	if err != nil {
		t.Fatal(err)
	}
	return signIn
}

// browser is the person's browser, over HTTP: it keeps the IAM's cookies (its single sign-on)
// and stops at every redirect, so the test sees each hop.
type browser struct{ http *http.Client }

func newBrowser(t *testing.T) *browser {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &browser{&http.Client{
		Jar:           jar,
		Timeout:       client.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// open follows the sign-in from the authorization URL to the IAM's answer at the redirect URI,
// choosing on the sign-in page (when the IAM shows one) the card of the person named name.
// It returns that answer's URL, which the browser would load next.
func (b *browser) open(t *testing.T, authURL, name string) string {
	t.Helper()
	answer, err := b.http.Get(authURL)
	if err != nil {
		t.Fatal(err)
	}
	page := readAll(t, answer)
	if answer.StatusCode == http.StatusOK {
		action, fields := personCard(t, page, name)
		target, err := answer.Request.URL.Parse(action)
		if err != nil {
			t.Fatal(err)
		}
		if answer, err = b.http.PostForm(target.String(), fields); err != nil {
			t.Fatal(err)
		}
		page = readAll(t, answer)
	}
	if answer.StatusCode != http.StatusFound {
		t.Fatalf("%s %s answered %d, not a redirect to the client: %s",
			answer.Request.Method, answer.Request.URL, answer.StatusCode, page)
	}
	location := answer.Header.Get("Location")
	if !strings.HasPrefix(location, ready.Edge+callbackPath+"?") {
		t.Fatalf("the IAM sent the browser to %q, not the redirect URI", location)
	}
	return location
}

func readAll(t *testing.T, answer *http.Response) string {
	t.Helper()
	defer answer.Body.Close()
	body, err := io.ReadAll(answer.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(body)
}

var (
	formTag     = regexp.MustCompile(`(?s)<form\b[^>]*\baction="([^"]*)"[^>]*>(.*?)</form>`)
	hiddenInput = regexp.MustCompile(`<input type="hidden" name="([^"]*)" value="([^"]*)">`)
)

// personCard is the form of the sign-in page's card showing name: what clicking it posts. The
// page is the IAM's own (web/signin), so a regular expression over its markup does.
func personCard(t *testing.T, page, name string) (string, url.Values) {
	t.Helper()
	for _, form := range formTag.FindAllStringSubmatch(page, -1) {
		if !strings.Contains(form[2], ">"+html.EscapeString(name)+"<") {
			continue
		}
		fields := url.Values{}
		for _, input := range hiddenInput.FindAllStringSubmatch(form[2], -1) {
			fields.Set(html.UnescapeString(input[1]), html.UnescapeString(input[2]))
		}
		return html.UnescapeString(form[1]), fields
	}
	t.Fatalf("the sign-in page has no card for %s:\n%s", name, page)
	return "", nil
}

func TestSigningInThroughTheIAM(t *testing.T) {
	signIn, person := newSignIn(t), newBrowser(t)
	pending := signIn.Start()
	asked, err := url.Parse(pending.URL)
	if err != nil {
		t.Fatal(err)
	}
	if q := asked.Query(); q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" || q.Get("nonce") == "" {
		t.Fatalf("not a PKCE request with a nonce: %s", pending.URL)
	}

	ada, err := signIn.Finish(t.Context(), pending, person.open(t, pending.URL, "Ada Lovelace"))
	if err != nil {
		t.Fatal(err)
	}
	if ada.PreferredUsername != "ada" || ada.Email != "ada@acme.example" || !ada.EmailVerified ||
		!slices.Equal(ada.Groups, []string{"analysts", "engineering"}) {
		t.Fatalf("not Ada: %+v", ada)
	}
	if ada.Token.RefreshToken == "" {
		t.Fatal("no refresh token")
	}
	info, err := signIn.UserInfo(t.Context(), ada.Token)
	if err != nil || info.Subject != ada.Sub {
		t.Fatalf("userinfo with the access token: %+v, %v", info, err)
	}

	// Single sign-on: the same browser's next sign-in is answered at once, without the page.
	again := signIn.Start()
	if _, err := signIn.Finish(t.Context(), again, person.open(t, again.URL, "nobody: no page expected")); err != nil {
		t.Fatal(err)
	}
}

// The answer at the redirect URI binds to the one sign-in that asked for it: its state, its
// PKCE verifier, its nonce, its realm; and the code works once.
func TestAnAnswerFitsOnlyItsOwnSignIn(t *testing.T) {
	signIn, person := newSignIn(t), newBrowser(t)
	// Each case gets a fresh answer; after the first, single sign-on skips the page.
	answer := func() (Pending, string) {
		pending := signIn.Start()
		return pending, person.open(t, pending.URL, "Grace Hopper")
	}
	tamper := func(callback, name, value string) string {
		u, _ := url.Parse(callback)
		q := u.Query()
		q.Set(name, value)
		u.RawQuery = q.Encode()
		return u.String()
	}
	for _, c := range []struct {
		name string
		try  func() error
		want string
	}{
		{"another state", func() error {
			p, callback := answer()
			_, err := signIn.Finish(t.Context(), p, tamper(callback, "state", "forged"))
			return err
		}, "the answer's state is not this sign-in's"},
		{"another realm's iss (mix-up)", func() error {
			p, callback := answer()
			_, err := signIn.Finish(t.Context(), p, tamper(callback, "iss", ready.IAM+"/realms/other"))
			return err
		}, "the answer's iss"},
		{"another PKCE verifier", func() error {
			p, callback := answer()
			p.Verifier = oauth2.GenerateVerifier()
			_, err := signIn.Finish(t.Context(), p, callback)
			return err
		}, "invalid_grant"},
		{"another nonce", func() error {
			p, callback := answer()
			p.Nonce = "forged"
			_, err := signIn.Finish(t.Context(), p, callback)
			return err
		}, "the ID token's nonce is not this sign-in's"},
		{"the code twice", func() error {
			p, callback := answer()
			if _, err := signIn.Finish(t.Context(), p, callback); err != nil {
				t.Fatalf("the first time: %v", err)
			}
			_, err := signIn.Finish(t.Context(), p, callback)
			return err
		}, "invalid_grant"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := c.try(); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("%v, want an error saying %q", err, c.want)
			}
		})
	}
}

// prompt=none with nobody signed in: the IAM answers login_required at the redirect URI, and
// Finish names it.
func TestTheIAMsRefusalIsNamed(t *testing.T) {
	signIn := newSignIn(t)
	pending := signIn.Start(oauth2.SetAuthURLParam("prompt", "none"))
	_, err := signIn.Finish(t.Context(), pending, newBrowser(t).open(t, pending.URL, "nobody: no page expected"))
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "login_required") {
		t.Fatalf("%v, want %v: login_required", err, ErrRefused)
	}
}

func TestAnotherRealmIsNotDiscovered(t *testing.T) {
	_, err := NewSignIn(t.Context(), ready.IAM+"/realms/other", clientID, ready.Edge+callbackPath, client)
	if err == nil || !strings.Contains(err.Error(), "discovering the realm "+ready.IAM+"/realms/other") {
		t.Fatalf("%v", err)
	}
}

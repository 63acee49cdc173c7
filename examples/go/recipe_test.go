package recipe

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// What TestMain started, for every test of the package: one app and one sandbox (starting
// one takes milliseconds). Each test signs its own session in and resets only that session
// (`reset?sid=`) when it ends, so tests running in parallel never see each other's faults.
var (
	app     *App
	ready   readyLine
	appURL  string
	client  = &http.Client{Timeout: 10 * time.Second}
	binary  string
	timeout = 30 * time.Second
)

type readyLine struct {
	Event, Edge, Broker, Control string
	Env                          Env
}

// The binary is override ($ZERO_SANDBOX) when set, else the debug build of the repository at
// repo, else its release build; an error saying what to build when there is none.
func findBinary(override, repo string) (string, error) {
	if override != "" {
		return override, nil
	}
	builds := []string{
		filepath.Join(repo, "target", "debug", "zero-sandbox"),
		filepath.Join(repo, "target", "release", "zero-sandbox"),
	}
	for _, build := range builds {
		if info, err := os.Stat(build); err == nil && info.Mode().IsRegular() {
			return build, nil
		}
	}
	return "", fmt.Errorf("no zero-sandbox binary at %s or %s: run `cargo build` "+
		"(or `cargo build --release`) in the repository, or set ZERO_SANDBOX to the binary",
		builds[0], builds[1])
}

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	var err error
	if binary, err = findBinary(os.Getenv("ZERO_SANDBOX"), filepath.Join("..", "..")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	// The app's port first: the sandbox's edge forwards to it.
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	appURL = "http://" + listener.Addr().String()
	sandbox, err := startSandbox(appURL)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer stopSandbox(sandbox)
	// Then the app gets the sandbox's environment.
	if app, err = NewApp(ready.Env); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	server := &http.Server{Handler: app, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = server.Serve(listener) }()
	defer server.Close()
	return m.Run()
}

func startSandbox(appURL string) (*exec.Cmd, error) {
	cmd := exec.Command(binary, "up", "--ready-json", "--ephemeral", "--no-open", "--app", appURL,
		"--edge-port", "0", "--broker-port", "0", "--iam-port", "0", "--querymesh-port", "0")
	var log bytes.Buffer // written by exec's copier until Wait returns
	cmd.Stderr = &log
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", binary, err)
	}
	lines := make(chan []byte, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadBytes('\n')
		lines <- line
		_, _ = io.Copy(io.Discard, stdout) // whatever follows
	}()
	select {
	case line := <-lines:
		if err := json.Unmarshal(line, &ready); err == nil && ready.Event == "ready" {
			return cmd, nil
		}
	case <-time.After(timeout):
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	return nil, fmt.Errorf("zero-sandbox did not get ready: %s", log.String())
}

// SIGTERM: the sandbox stops within a second.
func stopSandbox(cmd *exec.Cmd) {
	_ = cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(timeout):
		_ = cmd.Process.Kill()
		<-done
	}
}

// control makes one call to the test-control API and decodes its JSON answer.
func control(t *testing.T, method, path string, body any, want int) map[string]any {
	t.Helper()
	var payload io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		payload = bytes.NewReader(raw)
	}
	request, err := http.NewRequest(method, ready.Control+"/"+path, payload)
	if err != nil {
		t.Fatal(err)
	}
	request.Header.Set("Content-Type", "application/json")
	answer, err := client.Do(request)
	if err != nil {
		t.Fatal(err)
	}
	defer answer.Body.Close()
	var decoded map[string]any
	if err := json.NewDecoder(answer.Body).Decode(&decoded); err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	if answer.StatusCode != want {
		t.Fatalf("%s %s: %d %v, want %d", method, path, answer.StatusCode, decoded, want)
	}
	return decoded
}

type person struct{ cookie, sid, identity string }

// signIn signs a person in for this test and resets that session when the test ends.
func signIn(t *testing.T) person {
	t.Helper()
	session := control(t, "POST", "sessions", map[string]any{"person": "ada"}, 201)
	cookie, _ := session["cookie"].(map[string]any)
	p := person{fmt.Sprint(cookie["header"]), fmt.Sprint(session["sid"]), fmt.Sprint(session["identity"])}
	t.Cleanup(func() { control(t, "POST", "reset?sid="+p.sid, nil, 200) })
	return p
}

func get(t *testing.T, url string, header http.Header) (int, string) {
	t.Helper()
	request, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	request.Header = header
	answer, err := client.Do(request)
	if err != nil {
		t.Fatal(err)
	}
	defer answer.Body.Close()
	body, err := io.ReadAll(answer.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer.StatusCode, string(body)
}

func regions(t *testing.T, p *person) (int, string) {
	header := http.Header{}
	if p != nil {
		header.Set("Cookie", p.cookie)
	}
	return get(t, ready.Edge+"/regions", header)
}

func expect(t *testing.T, gotStatus int, gotBody string, status int, body string) {
	t.Helper()
	if gotStatus != status || (body != "" && gotBody != body) {
		t.Fatalf("got %d %q, want %d %q", gotStatus, gotBody, status, body)
	}
}

func TestSignedInPersonGetsTheirData(t *testing.T) {
	p := signIn(t)
	status, body := regions(t, &p)
	expect(t, status, body, 200, `{"regions":5}`)
}

func TestWithoutSessionTheAppSeesNobody(t *testing.T) {
	status, body := regions(t, nil)
	expect(t, status, body, 401, "")
}

func TestAppRefusesAnIdentityThatDoesNotCheckOut(t *testing.T) {
	p := signIn(t)
	// Straight at the app, past the edge (the spec warns such paths exist).
	forged := p.identity[:len(p.identity)-4] + "AAAA"
	status, body := get(t, appURL+"/regions", http.Header{"X-Nnumbers-Identity": {forged}})
	expect(t, status, body, 401, "not a person: bad signature")
}

func TestUnavailableQueryMeshAsksThePersonToTryAgain(t *testing.T) {
	p := signIn(t)
	control(t, "POST", "faults", map[string]any{
		"code": "QUERYMESH_UNAVAILABLE", "times": 1, "scope": map[string]any{"sid": p.sid},
	}, 201)
	status, body := regions(t, &p)
	expect(t, status, body, 503, "try again in a moment")
	status, body = regions(t, &p)
	expect(t, status, body, 200, "") // the fault applied once
}

func TestRotatedKeySendsTheAppToTheJWKS(t *testing.T) {
	p := signIn(t)
	fetches := app.JWKSFetches.Load()
	rotated := control(t, "POST", "keys/rotate", map[string]any{}, 200)
	if kid, _ := rotated["current"].(string); kid == "" || app.HasKey(kid) {
		t.Fatalf("the new kid %v should be unknown to the app's environment", rotated["current"])
	}
	status, body := regions(t, &p)
	expect(t, status, body, 200, `{"regions":5}`)
	if got := app.JWKSFetches.Load(); got != fetches+1 {
		t.Fatalf("%d JWKS fetches, want %d", got, fetches+1)
	}
	status, body = regions(t, &p)
	expect(t, status, body, 200, "")
	if got := app.JWKSFetches.Load(); got != fetches+1 {
		t.Fatal("the keys are kept, not fetched on every request")
	}
}

// Two tests at once against the one sandbox, each with its own session and a fault scoped
// to it: neither sees the other's.
func TestParallelSessionsNeverSeeEachOthersFaults(t *testing.T) {
	for _, faulty := range []bool{true, false} {
		faulty := faulty
		t.Run(fmt.Sprintf("fault=%v", faulty), func(t *testing.T) {
			t.Parallel()
			p := signIn(t)
			want := 200
			if faulty {
				want = 503
				control(t, "POST", "faults", map[string]any{
					"code": "QUERYMESH_UNAVAILABLE", "times": 1000, "scope": map[string]any{"sid": p.sid},
				}, 201)
			}
			// One call at a time per test: the broker lets one person run 4 queries at once, and
			// both tests sign in as ada, so more in flight would be refused by that limit.
			statuses := make([]int, 8)
			for i := range statuses {
				statuses[i], _ = regions(t, &p)
			}
			for i, status := range statuses {
				if status != want {
					t.Fatalf("call %d: %d, want %d (%v)", i, status, want, statuses)
				}
			}
		})
	}
}

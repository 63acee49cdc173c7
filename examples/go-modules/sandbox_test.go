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
	"strings"
	"syscall"
	"testing"
	"time"
)

// What TestMain started, for every test of the package: one sandbox and one app behind its
// edge. The sandbox runs on a state directory of its own (not --ephemeral) because
// `zero-sandbox token` signs its identities with that directory's keys.
var (
	app     *App
	ready   readyLine
	state   string
	binary  string
	client  = &http.Client{Timeout: 10 * time.Second}
	timeout = 30 * time.Second
)

type readyLine struct {
	Event, Edge, Broker, IAM, Control string
	Env                               Env
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
	if state, err = os.MkdirTemp("", "zero-sandbox-go-recipe-"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(state)
	// The app's port first: the sandbox's edge forwards to it.
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	sandbox, err := startSandbox("http://" + listener.Addr().String())
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
	cmd := exec.Command(binary, "up", "--ready-json", "--state", state, "--no-open", "--app", appURL,
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

// token runs `zero-sandbox token --as ada` with the forgery flags given, on the sandbox's
// state directory: an identity signed with the keys the running sandbox holds.
func token(t *testing.T, flags ...string) string {
	t.Helper()
	args := append([]string{"token", "--state", state, "--as", "ada"}, flags...)
	var stderr bytes.Buffer
	cmd := exec.Command(binary, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("zero-sandbox %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimSpace(string(out))
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

// get sends GET url with header, answering the status and the body.
func get(t *testing.T, url string, header http.Header) (int, string) {
	t.Helper()
	request, err := http.NewRequest(http.MethodGet, url, nil)
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
	return answer.StatusCode, strings.TrimSpace(string(body))
}

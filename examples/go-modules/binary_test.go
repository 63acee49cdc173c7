package recipe

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Where the recipe finds the binary: $ZERO_SANDBOX, the debug build, the release build, or an
// error that says to build it (not "fork/exec …/target/debug/zero-sandbox: no such file").
func TestFindBinaryFallsBackToTheReleaseBuild(t *testing.T) {
	repo := t.TempDir()
	build := func(profile string) string {
		path := filepath.Join(repo, "target", profile, "zero-sandbox")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, nil, 0o755); err != nil {
			t.Fatal(err)
		}
		return path
	}
	if _, err := findBinary("", repo); err == nil || !strings.Contains(err.Error(), "run `cargo build`") {
		t.Fatalf("no build: %v", err)
	}
	release := build("release")
	if got, err := findBinary("", repo); err != nil || got != release {
		t.Fatalf("only the release build: %q, %v", got, err)
	}
	debug := build("debug")
	if got, err := findBinary("", repo); err != nil || got != debug {
		t.Fatalf("the debug build first: %q, %v", got, err)
	}
	if got, _ := findBinary("/opt/zs", repo); got != "/opt/zs" {
		t.Fatalf("ZERO_SANDBOX: %q", got)
	}
}

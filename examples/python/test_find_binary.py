"""Where the recipe finds the binary: $ZERO_SANDBOX, the debug build, the release build, or an
error that says to build it (not "no such file …/target/debug/zero-sandbox")."""

import pytest

from conftest import find_binary


def build(repo, profile):
    path = repo / "target" / profile / "zero-sandbox"
    path.parent.mkdir(parents=True)
    path.write_text("")
    return str(path)


def test_the_release_build_when_there_is_no_debug_build(tmp_path):
    release = build(tmp_path, "release")
    assert find_binary({}, tmp_path) == release
    debug = build(tmp_path, "debug")
    assert find_binary({}, tmp_path) == debug, "the debug build first, as `cargo build` makes it"
    assert find_binary({"ZERO_SANDBOX": "/opt/zs"}, tmp_path) == "/opt/zs"


def test_no_build_is_an_error_that_says_to_build(tmp_path):
    with pytest.raises(FileNotFoundError, match="run `cargo build`"):
        find_binary({}, tmp_path)

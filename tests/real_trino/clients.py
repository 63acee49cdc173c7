"""Trino's own clients for the suite: the JDBC driver and the CLI of the pinned release, fetched
through Maven into the user's Maven repository once (as scripts/trino fetches the server), run
without a build tool.

- The JDBC driver (io.trino:trino-jdbc) runs jdbc/Check.java as a single-file source program
  on the default JDK (the driver needs Java 11 or later).
- The CLI (io.trino:trino-cli, the executable jar) needs Java 24 or later, like the server: the
  JDK scripts/trino uses (TRINO_JAVA_HOME, else Temurin 25).
"""

import base64
import json
import os
import pathlib
import shutil
import subprocess

VERSION = "476"
HERE = pathlib.Path(__file__).resolve().parent
NEWER_JDKS = ["/usr/lib/jvm/temurin-25-jdk-amd64", "/usr/lib/jvm/temurin-25-jdk-arm64"]
# Each JVM lives a few seconds: the quick compiler alone and the serial collector spend about
# 40 % less CPU getting there (measured on the 2-core CI machine's twin) than the defaults.
SHORT_LIVED_JVM = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"]


def maven_repository() -> pathlib.Path:
    return pathlib.Path(os.environ.get("MAVEN_REPO", pathlib.Path.home() / ".m2" / "repository"))


def artifact(name: str, classifier: str = "") -> pathlib.Path:
    """io.trino:<name>:476 (a jar, with `classifier` if given), fetched through Maven unless
    the Maven repository has it."""
    suffix = f"-{classifier}" if classifier else ""
    m2 = maven_repository()
    jar = m2 / "io" / "trino" / name / VERSION / f"{name}-{VERSION}{suffix}.jar"
    if not jar.is_file():
        coordinates = f"io.trino:{name}:{VERSION}:jar" + (f":{classifier}" if classifier else "")
        subprocess.run(
            ["mvn", "-q", "-B", "dependency:get", f"-Dmaven.repo.local={m2}",
             f"-Dartifact={coordinates}", "-Dtransitive=false"],
            check=True, timeout=600,
        )
    return jar


def newer_java() -> str:
    """`java` of a JDK new enough for the CLI (the one scripts/trino runs Trino with)."""
    for home in [os.environ.get("TRINO_JAVA_HOME", "")] + NEWER_JDKS:
        if home and os.access(pathlib.Path(home) / "bin" / "java", os.X_OK):
            return str(pathlib.Path(home) / "bin" / "java")
    raise FileNotFoundError(f"Trino {VERSION}'s CLI needs Java 24 or later: set TRINO_JAVA_HOME")


def default_java() -> str:
    java = shutil.which("java")
    if not java:
        raise FileNotFoundError("no `java` on PATH (the JDBC driver needs Java 11 or later)")
    return java


def subject(token: str) -> str:
    """The `sub` of a JWT: the Trino user its bearer is."""
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))["sub"]


def jdbc_url(querymesh_url: str, ca_file) -> str:
    """The JDBC URL of a QueryMesh at `querymesh_url` (https://host:port), trusting `ca_file`
    (a PEM file), with tpch.tiny as the session's catalog and schema."""
    address = querymesh_url.removeprefix("https://")
    return f"jdbc:trino://{address}/tpch/tiny?SSL=true&SSLTrustStorePath={ca_file}"


def run_cli(target, person: str, output_format: str, sql: str) -> subprocess.CompletedProcess:
    """`trino --execute` as `person`, with their QueryMesh access token; the Trino user is the
    token's subject (the CLI sends the OS user otherwise, which Trino takes for impersonation)."""
    token = target.token(person)
    return subprocess.run(
        [newer_java(), *SHORT_LIVED_JVM, "--enable-native-access=ALL-UNNAMED", "-jar",
         str(artifact("trino-cli", "executable")),
         "--server", target.querymesh_url, "--truststore-path", str(target.ca_file),
         "--access-token", token, "--user", subject(token),
         "--catalog", "tpch", "--schema", "tiny",
         "--output-format", output_format, "--execute", sql],
        capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL,
    )


def run_jdbc_checks(target) -> dict:
    """Runs every check of jdbc/Check.java against `target` in one JVM: {check: its line}."""
    erin = target.token("erin")
    done = subprocess.run(
        # A session time zone other than UTC, so what the driver sends (X-Trino-Time-Zone)
        # and how it converts instants show.
        [default_java(), *SHORT_LIVED_JVM, "-Duser.timezone=Asia/Kolkata",
         "-cp", str(artifact("trino-jdbc")),
         str(HERE / "jdbc" / "Check.java")],
        env={**os.environ, "CHECK_URL": jdbc_url(target.querymesh_url, target.ca_file),
             "ADA_TOKEN": target.token("ada"), "ERIN_TOKEN": erin,
             "ERIN_USER": subject(erin)},
        capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL,
    )
    checks = {}
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            report = json.loads(line)
            checks[report["check"]] = report
    if done.returncode != 0 or not checks:
        raise RuntimeError(f"Check.java exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return checks

"""The deployment recipe of docs/deploy/, started as written: two server processes behind nginx.

There is no systemd here, so the test does what it would: it reads
docs/deploy/tussle@.service for the command (ExecStart) and the environment
(Environment=, and tussle.env.example as the EnvironmentFile) and starts two
processes with that command and that environment alone, nothing of the test's.
What it changes is what a test must: the instance (%i) is a free port, the
venv is the test's, and TUSSLE_DB names a PostgreSQL database made for the test
(``TUSSLE_TEST_POSTGRES``'s server, as in tests/test_server.py) and dropped
after. nginx runs unprivileged on docs/deploy/tussle.conf as its one site,
changed only in its listening ports (on 127.0.0.1, IPv4 only), the upstream's
two ports and its certificate (a self-signed one for the site's name); a main
configuration file of the test's stands in for Debian's /etc/nginx/nginx.conf
and keeps nginx's pid, logs and temporary files in a temporary folder.

The clients reach the site by its public name (the recipe's
``games.example.org``), connecting to 127.0.0.1 as if the name resolved there,
so that TLS, nginx's server_name and the servers' TUSSLE_ALLOWED_HOSTS are
those of the recipe. Some connect from 127.0.0.2, another address of the
loopback interface, which nginx sees as a client from another machine.

Skipped only where nginx is not installed (``apt-get install nginx``; .ci/run
installs it).
"""

from __future__ import annotations

import contextlib
import dataclasses
import grp
import http.client
import json
import os
import pwd
import re
import shlex
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from server_support import postgres_database
from test_server import SHORT, Server, check_views, free_port, play_out
from tussle import Record
from tussle.server.app import MAX_RECORD

DEPLOY = Path(__file__).resolve().parents[1] / "docs" / "deploy"
#: Where the recipe installs tussle; the test runs its own venv's instead.
VENV = "/opt/tussle/venv"
#: The ports the recipe's units and nginx's upstream use (tussle@8001, tussle@8002).
UNIT_PORTS = (8001, 8002)
#: systemd's PATH for a service: nothing of the test's environment reaches the processes.
SYSTEMD_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin"
#: A client's own claim to an address, which nginx must not pass on.
SPOOFED = "203.0.113.9"
#: Another address of the loopback interface: a client that is not nginx's own machine.
ELSEWHERE = "127.0.0.2"

# nginx is in /usr/sbin, which an unprivileged user's PATH may lack.
NGINX = shutil.which(
    "nginx", path=os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/usr/local/sbin"])
)

pytestmark = [
    pytest.mark.skipif(
        NGINX is None, reason="nginx is not installed (apt-get install nginx): the recipe cannot be served"
    ),
    # The tests share one deployment (module fixture) and the last one stops it: keep them together.
    pytest.mark.xdist_group("deploy"),
]


def service_settings(unit: Path) -> dict[str, list[str]]:
    """The [Service] section of a systemd unit: each setting's values, in order."""
    settings: dict[str, list[str]] = {}
    section = ""
    for raw in unit.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line
        elif section == "[Service]":
            name, eq, value = line.partition("=")
            assert eq and not line.endswith("\\"), f"{unit.name}: a line this test cannot read: {raw!r}"
            settings.setdefault(name.strip(), []).append(value.strip())
    return settings


def environment_file(path: Path) -> dict[str, str]:
    """``VARIABLE=value`` lines, as systemd's EnvironmentFile= reads them (comments and blanks skipped)."""
    values: dict[str, str] = {}
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        name, eq, value = line.partition("=")
        assert eq, f"{path.name}: not VARIABLE=value: {raw!r}"
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[name.strip()] = value
    return values


def seconds(span: str) -> float:
    """A systemd time span such as ``10``, ``10s`` or ``1min 30s``, in seconds."""
    units = {"": 1, "s": 1, "sec": 1, "min": 60, "ms": 0.001}
    parts = re.findall(r"(\d+(?:\.\d+)?)\s*([a-z]*)", span)
    assert parts, span
    return sum(float(number) * units[unit] for number, unit in parts)


def self_signed(name: str, folder: Path) -> tuple[Path, Path]:
    """A certificate for ``name`` and its key, as files (openssl's, or the cryptography package's)."""
    cert, key = folder / "fullchain.pem", folder / "privkey.pem"
    openssl = shutil.which("openssl")
    if openssl is not None:
        subprocess.run(
            [
                *(openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"),
                *("-nodes", "-days", "2", "-subj", f"/CN={name}", "-addext", f"subjectAltName=DNS:{name}"),
                *("-keyout", str(key), "-out", str(cert)),
            ],
            check=True,
            capture_output=True,
        )
        return cert, key
    import datetime

    try:
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import NameOID
    except ImportError:
        pytest.fail("no openssl (apt-get install openssl) and no cryptography: no certificate for nginx")

    private = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(private.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(private.public_key()), critical=False)
        .sign(private, hashes.SHA256())
    )
    cert.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key.write_bytes(
        private.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    return cert, key


def substitute(text: str, pattern: str, new: str, count: int, what: str) -> str:
    """``text`` with ``pattern`` (a regular expression, multiline) replaced: exactly ``count`` times."""
    changed, found = re.subn(pattern, new, text, flags=re.MULTILINE)
    assert found == count, f"docs/deploy/tussle.conf: expected {count} {what}, found {found}; update the test"
    return changed


def render_site(text: str, *, upstream: list[int], http: int, https: int, cert: Path, key: Path) -> str:
    """The recipe's nginx site with the test's ports and certificate, and nothing else changed."""
    text = substitute(text, r"^[ \t]*listen[ \t]+\[::\]:\d+[^\n]*\n", "", 2, "IPv6 listen lines")
    text = substitute(text, r"(listen[ \t]+)80;", rf"\g<1>127.0.0.1:{http};", 1, "listen 80")
    text = substitute(text, r"(listen[ \t]+)443 ssl;", rf"\g<1>127.0.0.1:{https} ssl;", 1, "listen 443 ssl")
    for unit_port, port in zip(UNIT_PORTS, upstream, strict=True):
        text = substitute(
            text, rf"(server[ \t]+127\.0\.0\.1:){unit_port};", rf"\g<1>{port};", 1, f"upstream {unit_port}"
        )
    text = substitute(text, r"(ssl_certificate[ \t]+)\S+;", rf"\g<1>{cert};", 1, "ssl_certificate")
    return substitute(text, r"(ssl_certificate_key[ \t]+)\S+;", rf"\g<1>{key};", 1, "ssl_certificate_key")


def nginx_main(folder: Path, site: Path) -> str:
    """The main file Debian's /etc/nginx/nginx.conf is, with every file nginx writes in ``folder``."""
    # Started as root (a container), nginx would run its workers as nobody, who cannot enter a
    # private temporary folder to buffer a large body.
    user = ""
    if os.geteuid() == 0:
        user = f"user {pwd.getpwuid(os.geteuid()).pw_name} {grp.getgrgid(os.getegid()).gr_name};"
    temp = "\n".join(
        f'    {kind}_temp_path "{folder / kind}";'
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return f"""{user}
worker_processes 1;
pid "{folder / "nginx.pid"}";
error_log "{folder / "error.log"}";
events {{
    worker_connections 256;
}}
http {{
    access_log "{folder / "access.log"}";
{temp}
    include "{site}";
}}
"""


def in_session(session: int) -> list[int]:
    """The processes of a session: a unit's control group, here."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                if os.getsid(int(entry)) == session:
                    found.append(int(entry))
    return found


@dataclasses.dataclass
class Process:
    """One ``tussle@PORT`` unit's process: its command, environment and log (the journal's part)."""

    port: int
    command: list[str]
    env: dict[str, str]
    log: Path
    popen: subprocess.Popen[bytes] = dataclasses.field(init=False)
    #: How often it was started again (Restart=always).
    restarts: int = 0

    def __post_init__(self) -> None:
        self.start()

    def start(self) -> None:
        """As systemd starts a unit's process: its own session (a control group), in /, output logged."""
        with self.log.open("ab") as out:
            self.popen = subprocess.Popen(
                self.command,
                env=self.env,
                cwd="/",
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def access(self) -> list[dict[str, Any]]:
        """The access log: the JSON lines of the logger tussle.access."""
        entries = []
        for line in self.output().splitlines():
            with contextlib.suppress(ValueError):
                entry = json.loads(line)
                if isinstance(entry, dict) and entry.get("logger") == "tussle.access":
                    entries.append(entry)
        return entries

    def get(self, path: str) -> tuple[int, bytes]:
        """A request to the process itself, on its port (as Prometheus or an operator's curl)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            connection.request("GET", path)
            answer = connection.getresponse()
            return answer.status, answer.read()
        finally:
            connection.close()

    def metric(self, name: str) -> float:
        """A sample of the process's /metrics, by its name and labels (0 when absent)."""
        status, body = self.get("/metrics")
        assert status == 200, body
        for line in body.decode().splitlines():
            sample, _, value = line.rpartition(" ")
            if sample == name:
                return float(value)
        return 0.0

    def stop(self) -> None:
        """What ``systemctl stop`` does with KillMode=mixed: SIGTERM to the process, then SIGKILL to all."""
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
            try:
                self.popen.wait(10)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait()
        for pid in in_session(self.popen.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


@dataclasses.dataclass
class Site:
    """The deployment: nginx on ``https`` and ``http`` in front of ``processes``."""

    name: str
    https: int
    http: int
    tls: ssl.SSLContext
    processes: list[Process]
    unit: dict[str, list[str]]
    nginx_folder: Path

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
        *,
        source: str = "127.0.0.1",
        secure: bool = True,
    ) -> tuple[int, dict[str, str], bytes]:
        """A request to the site by its name, from ``source``: the status, headers and body."""
        raw = socket.create_connection(
            ("127.0.0.1", self.https if secure else self.http), timeout=10, source_address=(source, 0)
        )
        sock = self.tls.wrap_socket(raw, server_hostname=self.name) if secure else raw
        connection = http.client.HTTPConnection(self.name, self.https if secure else self.http, timeout=10)
        connection.sock = sock  # already connected: http.client connects only when it has no socket
        try:
            connection.request(method, path, body=body, headers=headers or {})
            answer = connection.getresponse()
            return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
        finally:
            connection.close()

    def post(self, path: str, body: Any) -> tuple[int, Any]:
        status, _, answer = self.request(
            "POST", path, json.dumps(body).encode(), {"content-type": "application/json"}
        )
        return status, json.loads(answer)

    def websocket(self, path: str, origin: str | None = None) -> ClientConnection:
        """A WebSocket over TLS through nginx, as a browser that resolved the site's name would open it."""
        raw = socket.create_connection(("127.0.0.1", self.https), timeout=10)
        return connect(
            f"wss://{self.name}{path}",
            sock=raw,
            ssl=self.tls,
            origin=Origin(origin) if origin else None,
            open_timeout=10,
            legacy=True,  # connected now, closed by play_out
        )

    def nginx_log(self) -> str:
        return (self.nginx_folder / "error.log").read_text(errors="replace")


class ThroughNginx(Server):
    """A seat's connection through the site, for test_server's play_out; no server of its own."""

    def __init__(self, site: Site, origin: str | None = None) -> None:
        self.site = site
        self.origin = origin

    def seat(self, game: str, token: str | None) -> ClientConnection:
        ws = self.site.websocket(f"/ws/games/{game}", self.origin)
        ws.send(json.dumps({"type": "hello", **({"token": token} if token else {})}))
        return ws


def wait_ready(process: Process, deadline: float, restart_after: float) -> None:
    """Until the process answers ready; one that exits is started again, as Restart=always does."""
    while time.monotonic() < deadline:
        if process.popen.poll() is not None:
            assert process.restarts < 3, f"tussle@{process.port} keeps exiting:\n{process.output()}"
            time.sleep(restart_after)
            process.restarts += 1
            process.start()
        with contextlib.suppress(OSError, http.client.HTTPException):
            if process.get("/readyz")[0] == 200:
                return
        time.sleep(0.2)  # slowly: these requests count in 127.0.0.1's request budget, shared in Redis
    raise AssertionError(f"tussle@{process.port} was not ready:\n{process.output()}")


def wait_listening(port: int, nginx: subprocess.Popen[bytes], folder: Path) -> None:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if nginx.poll() is not None:
            raise AssertionError((folder / "error.log").read_text(errors="replace"))
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return
        time.sleep(0.05)
    raise AssertionError("nginx did not listen")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    folder = tmp_path_factory.mktemp("deploy")
    unit = service_settings(DEPLOY / "tussle@.service")
    assert unit["EnvironmentFile"] == ["/etc/tussle/tussle.env"], "README: tussle.env.example is copied there"
    settings = environment_file(DEPLOY / "tussle.env.example")
    assert settings["TUSSLE_DB"].startswith("postgresql://")
    name = settings["TUSSLE_ALLOWED_HOSTS"].split()[0]
    (exec_start,) = unit["ExecStart"]
    template = shlex.split(exec_start)
    assert template[0].startswith(f"{VENV}/bin/"), exec_start
    # The database is dropped last, once nothing uses it.
    with postgres_database() as db, contextlib.ExitStack() as cleanup:
        env = {"PATH": SYSTEMD_PATH, "HOME": str(folder)}
        for line in unit.get("Environment", []):
            env.update(word.partition("=")[::2] for word in shlex.split(line))
        env.update(settings)  # EnvironmentFile= overrides Environment=, as systemd has it
        env["TUSSLE_DB"] = db
        env["TUSSLE_REDIS"] = os.environ.get("TUSSLE_TEST_REDIS", env["TUSSLE_REDIS"])
        processes = []
        for _ in UNIT_PORTS:
            port = free_port()
            command = [
                str(Path(sys.executable).parent / Path(template[0]).name),
                *(word.replace("%i", str(port)) for word in template[1:]),
            ]
            assert not any("%" in word for word in command), f"a specifier this test does not fill: {command}"
            log = folder / f"tussle@{port}.log"
            process = Process(port, command, env, log)
            cleanup.callback(process.stop)
            processes.append(process)
        (restart,) = unit["Restart"]
        assert restart == "always"
        deadline = time.monotonic() + 30
        for process in processes:
            wait_ready(process, deadline, seconds(unit["RestartSec"][0]))
        # Started at once on a new database, they migrate one at a time: neither had to start again.
        assert [p.restarts for p in processes] == [0, 0], [p.output() for p in processes]

        certs = folder / "letsencrypt"
        certs.mkdir()
        cert, key = self_signed(name, certs)
        http_port, https_port = free_port(), free_port()
        recipe = (DEPLOY / "tussle.conf").read_text()
        assert re.search(rf"server_name\s+{re.escape(name)};", recipe), "nginx serves the allowed host"
        nginx_folder = folder / "nginx"
        (nginx_folder / "sites-enabled").mkdir(parents=True)
        site_file = nginx_folder / "sites-enabled" / "tussle.conf"
        site_file.write_text(
            render_site(
                recipe,
                upstream=[p.port for p in processes],
                http=http_port,
                https=https_port,
                cert=cert,
                key=key,
            )
        )
        main = nginx_folder / "nginx.conf"
        main.write_text(nginx_main(nginx_folder, site_file))
        base = [str(NGINX), "-p", str(nginx_folder), "-e", str(nginx_folder / "error.log"), "-c", str(main)]
        checked = subprocess.run([*base, "-t"], check=False, capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr
        nginx = subprocess.Popen(
            [*base, "-g", "daemon off;"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )

        def stop_nginx() -> None:
            nginx.terminate()
            try:
                nginx.wait(10)
            except subprocess.TimeoutExpired:
                nginx.kill()
                nginx.wait()

        cleanup.callback(stop_nginx)
        wait_listening(https_port, nginx, nginx_folder)
        yield Site(
            name=name,
            https=https_port,
            http=http_port,
            tls=ssl.create_default_context(cafile=str(cert)),
            processes=processes,
            unit=unit,
            nginx_folder=nginx_folder,
        )


def test_ready_through_nginx_over_https_and_plain_http_is_sent_there(site: Site) -> None:
    status, headers, body = site.request("GET", "/readyz")
    assert status == 200, body
    ready = json.loads(body)
    # The environment file's database (LISTEN) and Redis are the ones in use.
    assert ready["ready"] and {"database", "listening", "redis"} <= set(ready["checks"]), ready
    assert "max-age" in headers["strict-transport-security"]
    status, _, body = site.request("GET", "/healthz")
    assert (status, json.loads(body)) == (200, {"status": "alive"})
    status, headers, _ = site.request("GET", "/readyz", secure=False)
    assert (status, headers["location"]) == (301, f"https://{site.name}/readyz")


def test_metrics_are_served_to_this_machine_only(site: Site) -> None:
    status, _, body = site.request("GET", "/metrics")
    assert status == 200 and b"tussle_http_requests_total" in body
    status, _, body = site.request("GET", "/metrics", source=ELSEWHERE)
    assert status == 403 and b"tussle" not in body


def test_a_game_is_played_to_its_end_over_wss_by_seats_on_both_processes(site: Site) -> None:
    status, game = site.post(
        "/api/games",
        {"game": "fite", "options": SHORT["fite"], "seats": [{"kind": "person"}, {"kind": "person"}]},
    )
    assert status == 201, game
    tokens = {seat["seat"]: seat["token"] for seat in game["seats"]}
    before = [p.metric('tussle_actions_total{by="person"}') for p in site.processes]
    # nginx's round robin sends the two seats' connections to the two processes in turn; the first
    # comes from a page of the site, whose origin the server must recognise through the proxy.
    seats: dict[int, Server] = {0: ThroughNginx(site, f"https://{site.name}"), 1: ThroughNginx(site)}
    seen = play_out(seats, game["id"], tokens, seed=5)
    status, _, body = site.request("GET", f"/api/games/{game['id']}/record")
    assert status == 200, body
    record = Record.from_json(json.loads(body))
    assert record.final_state().is_terminal()
    check_views(game["id"], record, seen)
    after = [p.metric('tussle_actions_total{by="person"}') for p in site.processes]
    assert all(a > b for a, b in zip(after, before, strict=True)), (before, after)


def test_the_logged_client_is_the_one_nginx_saw_and_never_its_own_claim(site: Site) -> None:
    spoof = {"x-forwarded-for": SPOOFED}
    assert site.request("GET", "/api/lobby", headers=spoof)[0] == 200
    for _ in range(4):  # through round robin, to both processes
        assert site.request("GET", "/api/catalog", headers=spoof, source=ELSEWHERE)[0] == 200
    deadline = time.monotonic() + 5
    while True:
        entries = {p.port: p.access() for p in site.processes}
        lobby = [e for log in entries.values() for e in log if e["path"] == "/api/lobby"]
        catalog = {port: [e for e in log if e["path"] == "/api/catalog"] for port, log in entries.items()}
        if (lobby and sum(map(len, catalog.values())) == 4) or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert [e["client"] for e in lobby] == ["127.0.0.1"], lobby
    # Both processes served requests through nginx, each naming the client nginx saw.
    assert all(catalog.values()) and sum(map(len, catalog.values())) == 4, catalog
    assert {e["client"] for found in catalog.values() for e in found} == {ELSEWHERE}
    for process in site.processes:
        assert SPOOFED not in process.output()


def test_the_largest_body_the_server_takes_gets_through_and_a_larger_one_is_refused_by_nginx(
    site: Site,
) -> None:
    recipe = (DEPLOY / "tussle.conf").read_text()
    (bound,) = re.findall(r"client_max_body_size\s+(\d+)m;", recipe)
    assert int(bound) * 2**20 == MAX_RECORD, "nginx's bound is the server's largest"
    # At the bound: the server answers (the record is not one), in its words.
    body = json.dumps({"record": {"game": "fite"}, "seat": "0", "junk": ""}).encode()
    body = body.replace(b'"junk": ""', b'"junk": "' + b"x" * (MAX_RECORD - len(body)) + b'"')
    assert len(body) == MAX_RECORD
    status, headers, answer = site.request(
        "POST", "/api/replay", body, {"content-type": "application/json"}, source=ELSEWHERE
    )
    assert 400 <= status < 500 and status != 413, answer[:200]
    assert "error" in json.loads(answer)
    # One byte over: nginx refuses it, every time, and in the server's words.
    for _ in range(3):
        status, headers, answer = site.request(
            "POST", "/api/replay", body + b" ", {"content-type": "application/json"}, source=ELSEWHERE
        )
        assert (status, headers["content-type"]) == (413, "application/json"), answer[:200]
        assert json.loads(answer) == {"error": f"a request body may have at most {MAX_RECORD:,} bytes"}


def test_each_process_stops_on_sigterm_within_the_units_stop_timeout(site: Site) -> None:
    assert site.unit["KillMode"] == ["mixed"] and site.unit.get("KillSignal", ["SIGTERM"]) == ["SIGTERM"]
    limit = seconds(site.unit["TimeoutStopSec"][0])
    for process in site.processes:
        assert len(in_session(process.popen.pid)) > 1, "worker processes run beside the server"
    began = time.monotonic()
    for process in site.processes:
        process.popen.send_signal(signal.SIGTERM)  # KillMode=mixed: the main process alone
    for process in site.processes:
        # The server ends by its own SIGTERM once it has shut down, which systemd counts as a clean stop.
        assert process.popen.wait(limit) in (0, -signal.SIGTERM), process.output()
    assert time.monotonic() - began < 5
    # Its workers went with it: systemd's SIGKILL after the main process exits finds nobody.
    deadline = time.monotonic() + 2
    while True:
        left = {p.port: in_session(p.popen.pid) for p in site.processes}
        if not any(left.values()) or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert not any(left.values()), left
    for process in site.processes:
        assert '"level": "error"' not in process.output(), process.output()

"""The files of docs/deploy.md (``deploy/``), checked by the tools that will read them: nginx's
own ``nginx -t`` on both nginx configs, ``systemd-analyze verify`` on both unit files, each
unit's ``ExecStart`` parsed as ``cardtable serve`` parses it (with the cluster's environment
file), and a real nginx, from the one-machine config, in front of a real ``cardtable serve``
started with the unit's own command line: a game played through it over HTTPS and a secure
websocket. CI installs nginx and sets ``CARDTABLE_TEST_NEED_NGINX``: there a missing nginx
fails these tests instead of skipping them."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import shutil
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from cardtable.server.cluster.tunnel import table_of
from helpers import load_bench, play_with_greedy
from server.conftest import Server, Socket, free_port

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
NGINX = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")
SYSTEMD_ANALYZE = shutil.which("systemd-analyze")
NO_NGINX = NGINX is None and not os.environ.get("CARDTABLE_TEST_NEED_NGINX")
need_nginx = pytest.mark.skipif(NO_NGINX, reason="no nginx (apt-get install nginx)")
#: where the configs expect the certificate (replaced by a test certificate here)
CERTS = "/etc/ssl/cardtable/"
#: where the units expect the installed command
INSTALLED = "/opt/cardtable/venv/bin/cardtable"


def deployed(name: str, changes: dict[str, str] | None = None) -> str:
    """A file of deploy/, with each of ``changes`` (old text: new) made, each one found."""
    text = (DEPLOY / name).read_text()
    for old, new in (changes or {}).items():
        assert old in text, f"{name} has no {old!r}"
        text = text.replace(old, new)
    return text


def make_certificate(folder: Path) -> None:
    """A self-signed certificate for 127.0.0.1: fullchain.pem and privkey.pem (openssl,
    which CI installs with nginx)."""
    openssl = shutil.which("openssl")
    assert openssl is not None, "openssl is needed to make a test certificate"
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"]
        + ["-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"]
        + ["-addext", "subjectAltName=IP:127.0.0.1"]
        + ["-keyout", str(folder / "privkey.pem"), "-out", str(folder / "fullchain.pem")],
        check=True,
        capture_output=True,
        timeout=30,
    )


def nginx_prefix(folder: Path, site: str) -> Path:
    """An nginx prefix in ``folder`` whose main config includes ``site`` (the text of a
    deploy/ config, which goes in an http block) as /etc/nginx/nginx.conf would: its own pid
    file, logs and temporary folders, so that nginx runs unprivileged-style in a test."""
    folder.mkdir(exist_ok=True)
    make_certificate(folder)
    site = site.replace(CERTS, f"{folder}/")
    (folder / "site.conf").write_text(site)
    temp = " ".join(
        f"{kind}_temp_path {folder}/{kind};" for kind in ("client_body", "proxy", "fastcgi")
    )
    user = "user root;\n" if os.geteuid() == 0 else ""  # workers read the test's files
    (folder / "nginx.conf").write_text(
        f"{user}pid {folder}/nginx.pid;\nerror_log {folder}/error.log;\nevents {{}}\n"
        f"http {{\n  access_log {folder}/access.log;\n  {temp}\n"
        f"  uwsgi_temp_path {folder}/uwsgi; scgi_temp_path {folder}/scgi;\n"
        f"  include {folder}/site.conf;\n}}\n"
    )
    return folder


def nginx_test(prefix: Path) -> subprocess.CompletedProcess[str]:
    assert NGINX is not None, "nginx is needed here (apt-get install nginx)"
    return subprocess.run(
        [NGINX, "-t", "-p", str(prefix), "-c", str(prefix / "nginx.conf")],
        capture_output=True,
        text=True,
        timeout=30,
    )


@need_nginx
@pytest.mark.parametrize("name", ["nginx-one-machine.conf", "nginx-cluster.conf"])
def test_nginx_accepts_each_config(tmp_path: Path, name: str) -> None:
    done = nginx_test(nginx_prefix(tmp_path / "nginx", deployed(name)))
    assert done.returncode == 0, done.stderr
    assert "syntax is ok" in done.stderr and "test is successful" in done.stderr


def cluster_route() -> re.Pattern[str]:
    """The balancer's rule for a request's table (nginx-cluster.conf's map), in Python."""
    rule = re.search(r'"~(\^/[^"]+)"', deployed("nginx-cluster.conf"))
    assert rule is not None
    return re.compile(rule.group(1).replace("(?<", "(?P<"))


@pytest.mark.parametrize(
    "path",
    [
        "/ws/tables/abc_DEF-123",
        "/api/tables/abc123/join",
        "/api/tables/abc123",
        "/api/tables",
        "/api/tables/",
        "/api/tablesx/abc",
        "/tables/abc123",
        "/api/tables/" + "a" * 65,
        "/api/tables/a.b/join",
    ],
)
def test_the_balancer_finds_the_table_the_server_finds(path: str) -> None:
    """The cluster config routes by the table id the server's router reads from a path
    (cluster/tunnel.py): the same table, or none, for every path."""
    match = cluster_route().match(path)
    assert (match.group("cardtable_table") if match else None) == table_of(path)


UNITS = {"cardtable.service": "cardtable.service", "cardtable@.service": "cardtable@1.service"}


def installed_units(folder: Path) -> Path:
    """Both units with the command where this test's venv has it and the environment file
    in ``folder``."""
    folder.mkdir(exist_ok=True)
    command = str(Path(sys.executable).parent / "cardtable")
    env = folder / "cluster.env"
    env.write_text(deployed("cluster.env"))
    for name in UNITS:
        changes = {INSTALLED: command}
        if "@" in name:
            changes["/etc/cardtable/cluster.env"] = str(env)
        (folder / name).write_text(deployed(name, changes))
    return folder


@pytest.mark.skipif(SYSTEMD_ANALYZE is None, reason="no systemd-analyze (systemd)")
@pytest.mark.parametrize("name", list(UNITS))
def test_systemd_accepts_each_unit(tmp_path: Path, name: str) -> None:
    folder = installed_units(tmp_path)
    assert SYSTEMD_ANALYZE is not None
    done = subprocess.run(
        [SYSTEMD_ANALYZE, "verify", str(folder / UNITS[name])],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert UNITS[name] not in done.stderr and name not in done.stderr, done.stderr


def unit_command(name: str, instance: str = "1") -> list[str]:
    """A unit's ExecStart, split as systemd splits it, ``%i`` its instance."""
    line = next(
        line for line in deployed(name).splitlines() if line.startswith("ExecStart=")
    ).removeprefix("ExecStart=")
    return shlex.split(line.replace("%i", instance))


def environment(name: str) -> dict[str, str]:
    """The variables an EnvironmentFile sets (KEY=VALUE lines; # comments)."""
    pairs = [
        line.split("=", 1)
        for line in deployed(name).splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    return {key.strip(): value.strip() for key, value in pairs}


def serve_settings(argv: list[str]) -> Any:
    """What ``cardtable serve`` makes of these arguments: its options parsed by its own
    command and checked by its own settings (a wrong option or value fails here)."""
    import typer

    from cardtable import cli

    command = typer.main.get_command(cli.app).commands["serve"]  # type: ignore[attr-defined]
    params = command.make_context("serve", argv).params
    # a repeatable option not given: typer calls ``serve`` with None, not click's ()
    return cli.server_settings({k: None if v == () else v for k, v in params.items()})


def test_the_one_machine_unit_runs_a_serve_command_line_fit_for_its_proxy() -> None:
    argv = unit_command("cardtable.service")
    assert argv[:2] == [INSTALLED, "serve"]
    settings = serve_settings(argv[2:])
    assert (settings.host, settings.port) == ("127.0.0.1", 8000)  # the upstream of nginx
    assert "server 127.0.0.1:8000;" in deployed("nginx-one-machine.conf")
    assert settings.forwarded_allow_ips == "127.0.0.1"  # nginx, on this machine
    assert str(settings.data) == "/var/lib/cardtable"  # StateDirectory=cardtable
    assert settings.db is None  # SQLite in the data folder
    assert settings.drain > 0 and settings.log_format == "json" and settings.metrics_port
    assert "StateDirectory=cardtable\n" in deployed("cardtable.service")


def test_the_cluster_unit_with_its_environment_is_one_of_many_processes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for key in [k for k in os.environ if k.startswith("CARDTABLE_")]:
        monkeypatch.delenv(key)
    for key, value in environment("cluster.env").items():
        assert key.startswith("CARDTABLE_"), key
        monkeypatch.setenv(key, value)
    settings = [serve_settings(unit_command("cardtable@.service", n)[2:]) for n in "12"]
    first = settings[0]
    assert [(s.port, s.metrics_port) for s in settings] == [(8001, 9101), (8002, 9102)]
    assert first.db.startswith("postgresql://") and first.bus.startswith("redis://")
    assert first.secure_cookies and first.allowed_origin == ["https://cards.example"]
    assert first.drain > 0 and first.log_format == "json"
    # the balancer is the one trusted proxy, and it sends to these processes
    balancer = deployed("nginx-cluster.conf")
    assert f"server {first.host}:8001 " in balancer and f"server {first.host}:8002 " in balancer
    assert "10.0.0.2" in first.forwarded_allow_ips


# -- a real nginx in front of a real server -----------------------------------------------
class Proxied:
    """``cardtable serve`` started with the one-machine unit's command line (its ports and
    folder moved into the test) behind nginx started from nginx-one-machine.conf."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.app, self.metrics, self.http, self.https = (free_port() for _ in range(4))
        self.procs: list[subprocess.Popen[bytes]] = []

    def start(self) -> None:
        argv = unit_command("cardtable.service")[1:]
        line = shlex.join(argv)
        for old, new in {
            "--port 8000": f"--port {self.app}",
            "--metrics-port 9100": f"--metrics-port {self.metrics}",
            "/var/lib/cardtable": str(self.folder / "data"),
        }.items():
            assert old in line
            line = line.replace(old, new)
        self.log = self.folder / "server.log"
        with open(self.log, "wb") as err:
            self.procs.append(
                subprocess.Popen(
                    # the bot moves at once (a test's game)
                    [sys.executable, "-m", "cardtable", *shlex.split(line), "--bot-delay", "0"],
                    stdout=subprocess.DEVNULL,
                    stderr=err,
                )
            )
        site = deployed(
            "nginx-one-machine.conf",
            {
                "127.0.0.1:8000": f"127.0.0.1:{self.app}",
                "listen 80;": f"listen 127.0.0.1:{self.http};",
                "listen 443 ssl;": f"listen 127.0.0.1:{self.https} ssl;",
                "    listen [::]:80;\n": "",  # no IPv6 wanted in a test
                "    listen [::]:443 ssl;\n": "",
            },
        )
        prefix = nginx_prefix(self.folder / "nginx", site)
        assert NGINX is not None
        self.procs.append(
            subprocess.Popen(
                [NGINX, "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-g", "daemon off;"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        self.wait_ready()

    def wait_ready(self) -> None:
        deadline = time.monotonic() + 30
        while True:
            try:
                if self.client().get("/readyz").status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            assert all(p.poll() is None for p in self.procs), self.log.read_text()
            assert time.monotonic() < deadline, self.log.read_text()
            time.sleep(0.1)

    @property
    def origin(self) -> str:
        return f"https://127.0.0.1:{self.https}"

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.origin, verify=False, timeout=10)

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
                time.sleep(0.2)
                proc.terminate()  # a second SIGTERM ends the drain at once
                try:
                    proc.wait(15)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[Proxied]:
    if NGINX is None:
        pytest.fail("nginx is needed here (CARDTABLE_TEST_NEED_NGINX is set)")
    setup = Proxied(tmp_path)
    try:
        setup.start()
        yield setup
    finally:
        setup.stop()


def no_verify() -> ssl.SSLContext:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


@pytest.mark.own_process
@need_nginx
async def test_a_game_played_through_nginx_in_front_of_the_unit_s_server(
    proxied: Proxied,
) -> None:
    """Through nginx over TLS: HTTP is sent to HTTPS; the server sees the scheme and the
    Host nginx forwards (the cookie is Secure, the page's own https origin may open a
    socket, a foreign one may not); nginx's request id reaches the server's JSON log; the
    socket is upgraded and a game is played to its end; the metrics port counts it."""
    plain = httpx.get(f"http://127.0.0.1:{proxied.http}/lobby", timeout=5)
    assert plain.status_code == 301
    assert plain.headers["location"] == "https://127.0.0.1/lobby"
    with proxied.client() as http:
        me = http.post("/api/me", json={"name": "Ada"}, headers={"origin": proxied.origin})
        assert me.status_code == 200, me.text
        cookie = me.headers["set-cookie"]
        assert "Secure" in cookie and "HttpOnly" in cookie  # the scheme came through
        token = http.cookies["cardtable_token"]
        table = http.post(
            "/api/tables",
            json={"game": "slide", "seats": ["me", "greedy"], "options": {}},
            headers={"origin": proxied.origin},
        )
        assert table.status_code == 200, table.text
        rid = table.headers["x-request-id"]
        assert re.fullmatch(r"[0-9a-f]{32}", rid)  # nginx's $request_id, not the server's own
        tid = table.json()["id"]
    url = f"wss://127.0.0.1:{proxied.https}/ws/tables/{tid}?token={token}"
    with pytest.raises(websockets.InvalidStatus) as refused:
        await websockets.connect(url, ssl=no_verify(), origin="https://evil.example")  # type: ignore[arg-type]
    assert refused.value.response.status_code == 403
    sock = Socket(
        await websockets.connect(url, ssl=no_verify(), origin=proxied.origin)  # type: ignore[arg-type]
    )
    await sock.until(lambda s: s["table"]["status"] == "running")
    end = await asyncio.wait_for(play_with_greedy(sock, "slide", errors_allowed=False), 120)
    assert end["table"]["status"] == "over"
    await sock.close()
    scraped = httpx.get(f"http://127.0.0.1:{proxied.metrics}/metrics", timeout=5).text
    accepted = re.search(r'cardtable_actions_accepted_total\{game="slide"\} (\S+)', scraped)
    assert accepted and float(accepted.group(1)) >= len(end["log"]) // 2
    lines = [json.loads(line) for line in proxied.log.read_text().splitlines() if line.strip()]
    assert any(line.get("request_id") == rid for line in lines)  # the edge's id, logged


# -- the guide and its files --------------------------------------------------------------
GUIDE = ROOT / "docs" / "deploy.md"


def test_the_guide_shows_every_deploy_file_as_it_is() -> None:
    """Each ``<!-- file: deploy/NAME -->`` of docs/deploy.md is followed by that file's
    text, exactly; every file of deploy/ is shown once."""
    shown = re.findall(
        r"^<!-- file: (deploy/\S+) -->\n```\w*\n(.*?)\n```$", GUIDE.read_text(), re.M | re.S
    )
    names = [name for name, _ in shown]
    assert sorted(names) == sorted(f"deploy/{p.name}" for p in DEPLOY.iterdir())
    for name, text in shown:
        assert text == (ROOT / name).read_text().rstrip("\n"), f"{name} differs in the guide"


def test_prometheus_scrapes_the_metrics_port_of_every_balanced_process() -> None:
    """Every process the balancer sends to (HOST:800N) is scraped (HOST:910N), and no
    other target is."""
    import yaml

    config = yaml.safe_load(deployed("prometheus.yml"))
    targets = {
        t for job in config["scrape_configs"] for s in job["static_configs"] for t in s["targets"]
    }
    upstreams = re.findall(r"server (10\.[\d.]+):800(\d) ", deployed("nginx-cluster.conf"))
    assert upstreams and targets == {f"{host}:910{n}" for host, n in upstreams}


# -- the rolling restart script -----------------------------------------------------------
class Systemd:
    """Stands in for systemd under deploy/rolling-restart.sh: its ``systemctl`` asks this
    object (through files in ``folder``) to restart a unit, and waits until it has: SIGTERM,
    the exit waited for, the process started again on its port, without waiting for it to
    be ready (the script's own wait is what is tested)."""

    def __init__(self, folder: Path, units: dict[str, Server]) -> None:
        self.folder, self.units = folder, units
        self.asked: list[str] = []
        self.ready_before: list[bool] = []  # each unit asked: was the one before it ready?
        self.systemctl = folder / "systemctl"
        self.systemctl.write_text(
            "#!/bin/sh\n"
            f'touch "{folder}/asked.$2"\n'
            f'while [ ! -e "{folder}/done.$2" ]; do sleep 0.05; done\n'
        )
        self.systemctl.chmod(0o755)

    def serve(self, stop: threading.Event) -> None:
        while not stop.is_set():
            for unit, server in self.units.items():
                if unit in self.asked or not (self.folder / f"asked.{unit}").exists():
                    continue
                if self.asked:
                    self.ready_before.append(ready(self.units[self.asked[-1]]) == 200)
                self.asked.append(unit)
                assert server.proc is not None
                server.proc.terminate()
                server.proc.wait(30)
                launch(server)
                (self.folder / f"done.{unit}").touch()
            time.sleep(0.05)


def ready(server: Server) -> int:
    try:
        return httpx.get(server.base + "/readyz", timeout=2).status_code
    except httpx.HTTPError:
        return 0


def launch(server: Server) -> None:
    """Start the server's process again, as Server.start does, without waiting for it."""
    with open(server.data / "server.log", "ab") as log:
        server.proc = subprocess.Popen(
            [sys.executable, "-m", "cardtable", "serve", "--port", str(server.port)]
            + ["--db", server.db_url, *server.args],
            env=dict(os.environ, CARDTABLE_DATA=str(server.data)),
            stdout=subprocess.DEVNULL,
            stderr=log,
        )


@pytest.mark.own_process
@pytest.mark.skipif(shutil.which("curl") is None, reason="no curl")
def test_the_rolling_restart_script_restarts_one_process_at_a_time(tmp_path: Path) -> None:
    servers = {}
    for n in (1, 2):
        data = tmp_path / f"p{n}"
        data.mkdir()
        servers[f"cardtable@{n}"] = Server(
            f"sqlite:///{data / 'cardtable.sqlite'}", data, ["--drain", "1"]
        )
    for server in servers.values():
        server.start()
    systemd, stop = Systemd(tmp_path, servers), threading.Event()
    helper = threading.Thread(target=systemd.serve, args=(stop,), daemon=True)
    helper.start()
    try:
        done = subprocess.run(
            [str(DEPLOY / "rolling-restart.sh")]
            + [f"{unit}=127.0.0.1:{s.port}" for unit, s in servers.items()],
            env=dict(os.environ, SYSTEMCTL=str(systemd.systemctl), READY_WITHIN="30"),
            capture_output=True,
            text=True,
            timeout=90,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert systemd.asked == list(servers)
        assert systemd.ready_before == [True]  # the first was ready before the second went
        assert all(ready(s) == 200 for s in servers.values())  # the last one waited for
        assert done.stdout.splitlines()[-1] == "cardtable@2 ready"
        # a process that never becomes ready stops the restart there
        for mark in [*tmp_path.glob("asked.*"), *tmp_path.glob("done.*")]:
            mark.unlink()
        systemd.asked.clear()
        servers["cardtable@1"].args = ["--port-that-is-no-option"]  # it cannot start
        failed = subprocess.run(
            [
                str(DEPLOY / "rolling-restart.sh"),
                f"cardtable@1=127.0.0.1:{servers['cardtable@1'].port}",
                "cardtable@2=127.0.0.1:1",
            ],
            env=dict(os.environ, SYSTEMCTL=str(systemd.systemctl), READY_WITHIN="2"),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert failed.returncode == 1
        assert "cardtable@1 is not ready" in failed.stderr
        assert systemd.asked == ["cardtable@1"]  # the next one was never touched
    finally:
        stop.set()
        helper.join(10)
        for server in servers.values():
            server.kill()


# -- the balancer's config in front of real processes -------------------------------------
@pytest.mark.own_process
@need_nginx
@pytest.mark.skipif(
    shutil.which("redis-server") is None and not os.environ.get("CARDTABLE_TEST_NEED_REDIS"),
    reason="no redis-server (apt-get install redis-server)",
)
async def test_the_balancer_sends_every_request_of_a_table_to_one_process(
    tmp_path: Path,
) -> None:
    """nginx from nginx-cluster.conf in front of two ``--bus`` processes: every request and
    socket about one table reaches the same process (nginx's own access log says which),
    the tables spread over both, and a game is played to its end through the balancer
    wherever its holder is (forwarded over the bus when the table was made elsewhere)."""
    redis, bus = load_bench("cluster").start_redis(tmp_path)
    servers = []
    for n in (1, 2):
        (tmp_path / f"p{n}").mkdir()
        servers.append(
            Server(f"sqlite:///{tmp_path / 'db.sqlite'}", tmp_path / f"p{n}", ["--bus", bus])
        )
    https, nginx = free_port(), None
    try:
        for server in servers:
            server.start()
        site = re.sub(
            r"(    server 10\.0\.0\.\d+:\d+ [^\n]*\n)+",
            "".join(
                f"    server 127.0.0.1:{s.port} max_fails=2 fail_timeout=10s;\n" for s in servers
            ),
            deployed(
                "nginx-cluster.conf",
                {
                    "listen 80;": f"listen 127.0.0.1:{free_port()};",
                    "listen 443 ssl;": f"listen 127.0.0.1:{https} ssl;",
                    "    listen [::]:80;\n": "",
                    "    listen [::]:443 ssl;\n": "",
                },
            ),
            count=1,
        )
        assert site.count("server 127.0.0.1:") == 2
        prefix = nginx_prefix(tmp_path / "nginx", site)
        conf = (prefix / "nginx.conf").read_text()
        (prefix / "nginx.conf").write_text(
            conf.replace(
                f"  access_log {prefix}/access.log;",
                f"  log_format routed '$uri $upstream_addr';\n"
                f"  access_log {prefix}/access.log routed;",
            )
        )
        assert NGINX is not None
        nginx = subprocess.Popen(
            [NGINX, "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        origin = f"https://127.0.0.1:{https}"
        await asyncio.to_thread(wait_ready, origin, nginx)
        tables, token = await asyncio.to_thread(tables_through, origin, 12)
        for tid in tables:  # three sockets to each table, each a new connection to nginx
            for _ in range(3):
                url = f"wss://127.0.0.1:{https}/ws/tables/{tid}?token={token}"
                sock = Socket(await websockets.connect(url, ssl=no_verify(), origin=origin))  # type: ignore[arg-type]
                await sock.until(lambda s: True)
                await sock.close()
        sock = Socket(
            await websockets.connect(
                f"wss://127.0.0.1:{https}/ws/tables/{tables[0]}?token={token}",
                ssl=no_verify(),
                origin=origin,  # type: ignore[arg-type]
            )
        )
        end = await asyncio.wait_for(play_with_greedy(sock, "slide", errors_allowed=True), 120)
        assert end["table"]["status"] == "over"
        await sock.close()
        routes: dict[str, set[str]] = {}
        for line in (prefix / "access.log").read_text().splitlines():
            uri, upstream = line.split(" ", 1)
            routes.setdefault(table_of(uri) or "", set()).add(upstream)
        for tid in tables:
            assert len(routes[tid]) == 1, (tid, routes[tid])  # one process per table
        assert len({next(iter(routes[tid])) for tid in tables}) == 2  # spread over both
    finally:
        if nginx is not None:
            nginx.terminate()
            nginx.wait(15)
        for server in servers:
            server.kill()
        redis.terminate()
        redis.wait()


def wait_ready(origin: str, nginx: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 20
    while True:
        try:
            if httpx.get(origin + "/readyz", verify=False, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        assert nginx.poll() is None and time.monotonic() < deadline, "nginx did not start"
        time.sleep(0.1)


def tables_through(origin: str, n: int) -> tuple[list[str], str]:
    """``n`` tables (Slide against a bot) made by one person through the balancer, each
    then read by its own path; their ids and the person's token."""
    with httpx.Client(base_url=origin, verify=False, timeout=10) as http:
        assert http.post("/api/me", json={"name": "Ada"}).status_code == 200
        tables = []
        for _ in range(n):
            made = http.post(
                "/api/tables", json={"game": "slide", "seats": ["me", "greedy"], "options": {}}
            )
            assert made.status_code == 200, made.text
            tables.append(made.json()["id"])
            assert http.get(f"/api/tables/{tables[-1]}").status_code == 200
        return tables, http.cookies["cardtable_token"]

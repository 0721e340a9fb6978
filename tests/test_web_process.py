"""``python bot.py web``: the site's own process on the bots' database answers /healthz and pages, stops
cleanly on SIGTERM, and refuses a taken port or a bad setting with one line saying what to change."""

from __future__ import annotations

import os
import pathlib
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def web_env(database: pathlib.Path, port: int, **more: str) -> dict[str, str]:
    return os.environ | {"DATABASE_PATH": str(database), "WEB_PORT": str(port), "WORKERS": "1"} | more


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()


def test_the_web_process_serves_until_sigterm(tmp_path):
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "bot.py"), "web"],
        env=web_env(tmp_path / "data" / "games.sqlite3", port),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                status, body = get(f"http://127.0.0.1:{port}/healthz")
                break
            except OSError:
                assert time.monotonic() < deadline and process.poll() is None, "the site never answered"
                time.sleep(0.2)
        assert status == 200 and '"database": "ok"' in body
        assert get(f"http://127.0.0.1:{port}/s/1/g/1-forged")[0] == 404
    finally:
        process.send_signal(signal.SIGTERM)
        output, _ = process.communicate(timeout=20)
    assert process.returncode == 0 and "stopped cleanly" in output and "Traceback" not in output, output


def test_a_taken_port_or_a_bad_setting_is_one_line(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = subprocess.run(
            [sys.executable, str(ROOT / "bot.py"), "web"],
            env=web_env(tmp_path / "games.sqlite3", port),
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert run.returncode == 1 and "choose another WEB_PORT" in run.stderr and "Traceback" not in run.stderr
    wrong = subprocess.run(
        [sys.executable, str(ROOT / "bot.py"), "web"],
        env=web_env(tmp_path / "games.sqlite3", 8080, PUBLIC_URL="games.example.org"),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert wrong.returncode == 1 and "PUBLIC_URL must be an http(s) address with no path" in wrong.stderr

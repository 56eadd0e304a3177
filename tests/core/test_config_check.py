"""``gateway config check``: one friendly line per mistake, and the same lines when serve starts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gateway.ops.config_check import check, key_lines

GATEWAY = [sys.executable, "-m", "gateway"]
REPO = Path(__file__).resolve().parents[2]


def gateway(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("GATEWAY_")}
    environ["GATEWAY_NO_VENV"] = "1"  # cwd is tmp_path: the default vault.db would be made there
    environ["PYTHONPATH"] = str(REPO)  # this checkout, not whichever one the venv installed
    return subprocess.run(
        [*GATEWAY, *args], cwd=tmp_path, env=environ, capture_output=True, text=True, timeout=60
    )


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "gateway.toml"
    path.write_text(text)
    return path


MISSPELT = '[http]\nport = 9000\n\n[irc.libera]\nhost = "irc.libera.chat"\nchanels = ["#nightcap"]\n'


def test_misspelt_adapter_key_is_one_line_with_place_and_suggestion(tmp_path: Path) -> None:
    path = write(tmp_path, MISSPELT)
    assert check(path).problems == [f"{path}:6: irc.libera.chanels: unknown key; did you mean 'channels'?"]


def test_core_section_mistakes_each_get_a_line(tmp_path: Path) -> None:
    path = write(tmp_path, '[gateway]\nmax_pol = 3\n\n[http]\nport = "abc"\n[vault]\n')
    problems = check(path).problems
    assert problems[0] == f"{path}:2: gateway.max_pol: unknown key; did you mean 'max_pool'?"
    assert problems[1].startswith(f"{path}:5: http.port: Input should be a valid integer")
    assert problems[1].endswith("(got 'abc')")
    assert len(problems) == 2


def test_unknown_table_suggests_the_section(tmp_path: Path) -> None:
    path = write(tmp_path, "[htpp]\nport = 9000\n")
    unknown = f"{path}:1: [htpp]: unknown table (not a core section, rule system or adapter)"
    assert check(path).problems == [f"{unknown}; did you mean 'http'?"]
    # Also beside a mistake in a core section: every mistake at once.
    path = write(tmp_path, "[htpp]\nport = 9000\n[log]\nformt = 'json'\n")
    assert check(path).problems == [
        f"{path}:4: log.formt: unknown key; did you mean 'format'?",
        f"{unknown}; did you mean 'http'?",
    ]


def test_rule_system_table_and_missing_adapter_key(tmp_path: Path) -> None:
    path = write(tmp_path, "[nightcap]\nno_such_option = 1\n")
    assert check(path).problems == [f"{path}:2: nightcap.no_such_option: unknown key"]
    path = write(tmp_path, "# Second Life\n[secondlife]\nobject_keys = []\n")
    problems = check(path).problems
    assert f"{path}:2: secondlife.shared_secret: required, but missing" in problems


def test_a_bad_environment_variable_is_named_as_such(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GATEWAY_HTTP__PORT", "eighty")
    problems = check(write(tmp_path, "[http]\nhost = '0.0.0.0'\n")).problems
    assert len(problems) == 1 and problems[0].startswith("environment: http.port: Input should be")
    monkeypatch.delenv("GATEWAY_HTTP__PORT")
    monkeypatch.setenv("GATEWAY_NIGHTCAP__NO_SUCH", "1")
    monkeypatch.setenv("GATEWAY_IRCC__LIBERA__HOST", "irc.libera.chat")
    unknown = "unknown table (not a core section, rule system or adapter)"
    assert check(write(tmp_path, "[http]\nport = 9000\n")).problems == [
        f"environment: [ircc]: {unknown}; did you mean 'irc'?",
        "environment: nightcap.no_such: unknown key",
    ]


def test_a_bad_vault_url_or_dice_script_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, "[vault]\nurl = 'foo://x/y'\n")
    (problem,) = check(path).problems
    assert problem.startswith(f"{path}:2: vault.url: Can't load plugin: sqlalchemy.dialects:foo (e.g. sqlite")
    monkeypatch.setenv("GATEWAY_DICE_SCRIPT", "abc")
    assert check(write(tmp_path, "")).problems == [
        "environment: dice.script: GATEWAY_DICE_SCRIPT must be comma-separated faces, got 'abc'"
    ]


def test_toml_syntax_error_has_line_and_column(tmp_path: Path) -> None:
    path = write(tmp_path, "[http]\nport = = 9000\n")
    assert check(path).problems == [f"{path}:2:8: TOML syntax: Invalid value"]


def test_key_lines_skip_multiline_strings_and_know_dotted_keys() -> None:
    text = '[a]\nx = """\nfake = 1\n"""\nb.c = 2\n[[d.e]]\n"q k" = 3\n'
    assert key_lines(text) == {
        ("a",): 1,
        ("a", "x"): 2,
        ("a", "b", "c"): 5,
        ("d", "e"): 6,
        ("d", "e", "q k"): 7,
    }


def test_cli_check_ok_prints_a_summary_and_exits_zero(tmp_path: Path) -> None:
    write(tmp_path, '[http]\nport = 9000\n[irc.libera]\nhost = "irc.libera.chat"\nchannels = ["#nc"]\n')
    done = gateway(tmp_path, "config", "check", "gateway.toml")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "gateway.toml: ok"
    assert "  http: 127.0.0.1:9000" in lines
    assert any(line.startswith("  adapters: ") and "irc" in line for line in lines)
    assert any(line.startswith("  rule systems: ") and "(default nightcap)" in line for line in lines)


def test_cli_check_bad_file_exits_one_without_traceback(tmp_path: Path) -> None:
    write(tmp_path, MISSPELT)
    done = gateway(tmp_path, "--config", "gateway.toml", "config", "check")
    assert done.returncode == 1
    assert done.stdout == "gateway.toml:6: irc.libera.chanels: unknown key; did you mean 'channels'?\n"
    assert "Traceback" not in done.stderr
    assert gateway(tmp_path, "config", "check", "missing.toml").stdout == "missing.toml: no such file\n"


@pytest.mark.parametrize("text", [MISSPELT, "[gateway]\nmax_pol = 3\n", "[http\n", "[vault]\nurl = 'x'\n"])
def test_serve_with_a_bad_config_prints_the_lines_not_a_traceback(tmp_path: Path, text: str) -> None:
    write(tmp_path, text)
    done = gateway(tmp_path, "--config", "gateway.toml", "serve", "--port", "0")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    first = done.stderr.splitlines()[0]
    assert first.startswith("gateway.toml:") and first == check(tmp_path / "gateway.toml").problems[
        0
    ].replace(str(tmp_path / "gateway.toml"), "gateway.toml")
    assert len(done.stderr.splitlines()) <= 3


def test_every_mistake_in_one_run_core_system_and_adapter(tmp_path: Path) -> None:
    # A bad core value, a misspelt adapter key and a misspelt rule-system key: all three at once.
    text = '[gateway]\nmax_pool = "lots"\n\n[irc.libera]\nhost = "irc.libera.chat"\nchanels = ["#nc"]\n'
    path = write(tmp_path, text + "\n[nightcap]\nno_such = 1\n")
    problems = check(path).problems
    assert problems[0].startswith(f"{path}:2: gateway.max_pool: Input should be a valid integer")
    assert f"{path}:9: nightcap.no_such: unknown key" in problems
    assert f"{path}:6: irc.libera.chanels: unknown key; did you mean 'channels'?" in problems
    assert len(problems) == 3


def test_unknown_default_system_is_named_without_importing_it(tmp_path: Path) -> None:
    path = write(tmp_path, "[gateway]\ndefault_system = 'nightkap'\n")
    assert check(path).problems == [
        f"{path}:2: gateway.default_system: no plugin named 'nightkap' is installed; did you mean 'nightcap'?"
    ]

"""``companion buttons``: the wiring monitor and ``--assign``, run as a stranger would run them."""

from __future__ import annotations

import io
import json
import os
import queue
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from companion import cli
from companion.cli.buttons import assign, cmd_buttons, free_pins, monitor
from companion.errors import ConfigError
from companion.hardware.config import HardwareConfig
from companion.inputs.gpio import GpioSource
from companion.inputs.gpio_pins import ButtonPin

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


class LineSink(io.StringIO):
    """An output stream the test can wait on, line by line."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: queue.Queue[str] = queue.Queue()
        self._buf = ""

    def write(self, s: str) -> int:
        self._buf += s
        while "\n" in self._buf:
            line, self._buf = self._buf.split("\n", 1)
            self.lines.put(line)
        return super().write(s)

    def wait_for(self, cond: Callable[[str], bool], timeout: float = 10) -> str:
        while True:
            line = self.lines.get(timeout=timeout)
            if cond(line):
                return line


def human_pause() -> None:
    """Keep a button where it is for 50 ms, as a hand would: presses are judged on real time
    stamps, so this only guarantees the spacing a human has; nothing waits on it to assert."""
    threading.Event().wait(0.05)


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    rc = cli.main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


def test_sim_monitor_runs_for_a_stranger(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run_cli(
        ["buttons", "--input", "sim", "--speed", "0", "--max-events", "12", "--json"], capsys
    )
    assert rc == 0
    recs = [json.loads(line) for line in out.splitlines()]
    assert len(recs) == 12
    assert all(r["source"] == "sim" and 0 <= r["seat"] < 4 for r in recs)
    assert recs[0]["edge"] == "press" and recs[0]["since_first_us"] == 0


def test_sim_monitor_speaks_french_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run_cli(["buttons", "--input", "sim", "--speed", "0", "--max-events", "4"], capsys)
    assert rc == 0
    assert "appuyez sur les boutons" in out and "place" in out and "appui" in out
    assert "+0,000 ms" in out


def test_duration_ends_a_quiet_monitor(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run_cli(["buttons", "--input", "sim", "--duration", "0.2", "--lang", "en"], capsys)
    assert rc == 0 and "press the buttons" in out


def test_gpio_monitor_shows_presses_bounces_and_release() -> None:
    factory = MockFactory()
    src = GpioSource([ButtonPin("seat", 0, 17), ButtonPin("seat", 1, 27)], pin_factory=factory)
    sink = LineSink()
    result: list[int] = []
    th = threading.Thread(target=lambda: result.append(monitor(src, sink, "en", max_events=3, duration=30)))
    th.start()
    sink.wait_for(lambda s: "press the buttons" in s)
    pin = factory.pin(27)
    pin.drive_low()
    pin.drive_high()  # bounce
    pin.drive_low()
    line = sink.wait_for(lambda s: "seat 2" in s)
    assert "press" in line and "+0.000 ms" in line and "bounces 2, glitches 0" in line
    factory.pin(17).drive_low()
    assert "seat 1" in sink.wait_for(lambda s: "press" in s)
    pin.drive_high()
    assert "release" in sink.wait_for(lambda s: "seat 2" in s)
    th.join(10)
    assert result == [0]
    summary = sink.getvalue()
    assert "seat 2: 1 presses, 2 bounces, 0 glitches" in summary
    factory.close()


def test_gpio_via_cli_with_injected_factory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pin map comes from the config file: a press on GPIO17 shows as seat 1's."""
    cfg = tmp_path / "c.toml"
    cfg.write_text("[gpio]\nseats = [{button = 17}]\n")
    factory = MockFactory()
    args = cli.build_parser().parse_args(
        [
            "buttons",
            "--input",
            "gpio",
            "--config",
            str(cfg),
            "--duration",
            "30",
            "--max-events",
            "1",
            "--lang",
            "en",
        ]
    )
    sink = LineSink()
    monkeypatch.setattr("sys.stdout", sink)
    result: list[int] = []
    th = threading.Thread(target=lambda: result.append(cmd_buttons(args, pin_factory=factory)))
    th.start()
    sink.wait_for(lambda s: "press the buttons" in s)
    factory.pin(17).drive_low()
    line = sink.wait_for(lambda s: "press" in s and "seat" in s)
    assert "seat 1" in line and "+0.000 ms" in line
    th.join(10)
    assert result == [0]
    factory.close()


@pytest.mark.parametrize(
    ("toml", "argv_extra", "rc", "needle"),
    [
        ("", ["--input", "gpio"], 2, "--assign"),
        ("[gpio]\nseats = [{button = 17}, {button = 17}]", [], 2, "GPIO17"),
        ("[gpio]\nseats = [{button = 17}]", ["--input", "bluetooth"], 2, "bluetooth"),
    ],
)
def test_bad_setups_say_one_sentence(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    toml: str,
    argv_extra: list[str],
    rc: int,
    needle: str,
) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text(toml)
    got, out, err = run_cli(["buttons", "--config", str(cfg), "--lang", "en", *argv_extra], capsys)
    assert got == rc
    assert needle in err and err.count("\n") == 1 and out == ""


def test_gpio_without_lgpio_names_the_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LG_WD", str(tmp_path))
    cfg = tmp_path / "c.toml"
    cfg.write_text("[gpio]\nseats = [{button = 17}]")

    rc, _, err = run_cli(["buttons", "--input", "gpio", "--config", str(cfg), "--duration", "0.01"], capsys)
    if not list(Path("/dev").glob("gpiochip*")):
        assert rc == 1 and "--input keyboard" in err and "GPIO0..GPIO27" in err
    else:  # on a Pi: either it ran, or it says which group or chip is the problem
        assert rc == 0 or "gpio" in err


def test_assign_writes_the_pin_map(tmp_path: Path) -> None:
    factory = MockFactory()
    out = tmp_path / "sub" / "companion.toml"
    prompts: queue.Queue[str] = queue.Queue()
    config = HardwareConfig.from_toml('[gpio]\nbuses = ["id_eeprom", "i2c"]')
    result: list[int] = []
    th = threading.Thread(
        target=lambda: result.append(
            assign(
                config,
                output=out,
                referee=True,
                duration=30,
                lang="en",
                pin_factory=factory,
                prompt=prompts.put,
            )
        )
    )
    th.start()

    def wait_prompt(text: str) -> None:
        while text not in prompts.get(timeout=10):
            pass

    def press(pin: int) -> None:
        factory.pin(pin).drive_low()

    def release(pin: int) -> None:
        human_pause()
        factory.pin(pin).drive_high()
        human_pause()

    wait_prompt("seat 1")
    press(22)
    wait_prompt("seat 2")
    release(22)
    press(5)
    wait_prompt("seat 3")
    release(5)
    press(5)  # the same button again is not a new seat
    wait_prompt("already seat 2")
    release(5)
    press(22)  # seat 1 again: done with seats
    wait_prompt('referee button "confirm"')
    press(26)
    wait_prompt('referee button "cancel"')
    release(22)
    press(22)  # seat 1's button: there is no cancel button
    wait_prompt('referee button "undo"')
    release(22)
    press(22)
    wait_prompt("written")
    th.join(10)
    assert result == [0]
    cfg = HardwareConfig.from_file(out)
    assert [s.button for s in cfg.gpio.seats] == [22, 5]
    assert (cfg.gpio.referee.confirm, cfg.gpio.referee.cancel) == (26, None)
    assert cfg.input.source == "gpio"
    factory.close()


def test_assign_listens_only_on_free_pins() -> None:
    cfg = HardwareConfig.from_toml('[gpio]\nbuses = ["id_eeprom", "spi"]\nseats = [{button = 17, led = 12}]')
    pins = free_pins(cfg)
    assert 0 not in pins and 7 not in pins and 11 not in pins and 12 not in pins
    assert 17 in pins and 2 in pins and len(pins) == 28 - 2 - 5 - 1


def test_assign_refuses_to_overwrite(tmp_path: Path) -> None:
    out = tmp_path / "c.toml"
    out.write_text("")
    with pytest.raises(ConfigError, match="--force"):
        assign(HardwareConfig(), output=out, pin_factory=MockFactory())


def test_assign_with_no_press_says_check_wiring(tmp_path: Path) -> None:
    factory = MockFactory()
    from companion.errors import HardwareError

    with pytest.raises(HardwareError, match="wiring"):
        assign(HardwareConfig(), output=tmp_path / "c.toml", duration=0.05,
               pin_factory=factory, prompt=lambda s: None)  # fmt: skip
    factory.close()

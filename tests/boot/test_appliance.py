"""The appliance, booted: a Debian system built from Debian's packages, the companion installed by
docs/install-pi.md's own blocks, hardware/companion.service started by systemd, the screen drawn
by SDL's kmsdrm driver on a virtio-gpu DRM device, a kill -9 and a pulled plug. Each check reads
what tests/boot/scenario.py saw (it runs in the background while the rest of the suite runs).

The checks' own tools (the picture comparison, the guide's parser) are tested first, without a
machine, against inputs that must fail them."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest

from companion.inputs.debounce import DEFAULT_LOCKOUT_NS
from tests.boot.appliance import (
    DOC,
    HARDWARE,
    KEEP_DEBS,
    NEEDS_BOOTED,
    _keep_debs,
    _reuse_debs,
    doc_blocks,
    read_ppm,
    runnable,
    same_picture,
    share_of_colour,
)

# A screendump of the kmsdrm screen agrees with the host's snapshot of the same game on at least
# this share of pixels (each channel within 24 of 255): what differs is the resumed-game toast.
MATCH = 0.97


def _explain(obs: dict[str, Any], *phases: str) -> str:
    errors = {k: v for k, v in obs.get("errors", {}).items() if not phases or k in phases}
    return json.dumps(errors, indent=1)[-5000:] if errors else ""


# --- the checks' tools ----------------------------------------------------------------------------


def test_the_picture_comparison_tells_a_screen_from_black_and_from_another() -> None:
    import random

    rng = random.Random(1)
    picture = bytes(rng.randrange(256) for _ in range(300 * 3))
    assert same_picture(picture, picture) == 1.0
    assert same_picture(bytes(len(picture)), picture) < 0.2
    shifted = picture[3:] + picture[:3]
    assert same_picture(shifted, picture) < 0.3
    nudged = bytes(min(255, b + 20) for b in picture)
    assert same_picture(nudged, picture) == 1.0
    assert same_picture(picture[:-3], picture) == 0.0
    bg = (16, 20, 24)
    assert share_of_colour(bytes(bg) * 100, bg, step=1) == 1.0
    assert share_of_colour(bytes(300), bg, step=1) == 0.0
    # A pixel counts when all three channels are the colour's; a sample is every step-th pixel.
    assert share_of_colour(bytes((16, 20, 0, 16, 0, 24, 0, 20, 24)), bg, step=1) == 0.0
    assert share_of_colour(bytes(bg) * 3 + bytes(3) * 3, bg, step=1) == 0.5
    assert share_of_colour((bytes(bg) + bytes(3)) * 4 + bytes(bg)[:2], bg, step=2) == 1.0


def test_a_ppm_screendump_is_read_as_qemu_writes_it(tmp_path: Path) -> None:
    f = tmp_path / "s.ppm"
    f.write_bytes(b"P6\n# qemu\n2 1\n255\n" + bytes([1, 2, 3, 4, 5, 6]))
    assert read_ppm(f) == (2, 1, bytes([1, 2, 3, 4, 5, 6]))
    f.write_bytes(b"P5\n2 1\n255\n\x00\x00")
    with pytest.raises(ValueError, match="P6"):
        read_ppm(f)


def test_every_block_of_the_guide_says_who_runs_it(tmp_path: Path) -> None:
    blocks = doc_blocks()
    assert {b.where for b in blocks} == {"computer", "pi-admin", "pi-companion"}
    bad = tmp_path / "bad.md"
    bad.write_text("```sh\nls\n```\n", encoding="utf-8")
    with pytest.raises(ValueError, match="who runs it"):
        doc_blocks(bad)
    assert not runnable(f"companion buttons --assign  {HARDWARE}")
    assert runnable("companion doctor") and not runnable("# a comment")
    assert NEEDS_BOOTED.search("sudo -u companion /x/companion doctor")
    assert not NEEDS_BOOTED.search("sudo systemctl enable --now companion")


def test_the_guide_names_where_the_code_comes_from_and_no_variable() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert "$REPOSITORY_URL" not in text
    computer = [b for b in doc_blocks() if b.where == "computer"]
    assert any("pip wheel" in line for b in computer for line in b.lines)
    assert any(line.startswith("scp ") for b in computer for line in b.lines)
    # No SDL2 packages from Debian: pygame-ce's wheel carries its own SDL.
    assert not re.search(r"libsdl2", text)


def test_the_packages_apt_fetched_are_kept_for_the_next_build_and_left_out_of_the_image(
    tmp_path: Path,
) -> None:
    cache, root = tmp_path / "cache", tmp_path / "root"
    (cache / "debs").mkdir(parents=True)
    (cache / "debs" / "old_1.0_amd64.deb").write_bytes(b"old")
    (cache / "debs" / "kept_1.0_amd64.deb").write_bytes(b"kept")
    (root / "etc" / "apt" / "apt.conf.d").mkdir(parents=True)
    archives = _reuse_debs(cache, root)
    assert sorted(d.name for d in archives.glob("*.deb")) == ["kept_1.0_amd64.deb", "old_1.0_amd64.deb"]
    assert "Keep-Downloaded-Packages" in (root / KEEP_DEBS).read_text(encoding="utf-8")
    # The guide's apt lines: one package fetched anew, one the mirror no longer serves left unused.
    (archives / "old_1.0_amd64.deb").unlink()
    (archives / "new_2.0_amd64.deb").write_bytes(b"new")
    _keep_debs(cache, root, archives)
    assert sorted(d.name for d in (cache / "debs").glob("*.deb")) == [
        "kept_1.0_amd64.deb",
        "new_2.0_amd64.deb",
    ]
    assert not list(archives.glob("*.deb")) and not (root / KEEP_DEBS).exists()
    assert sorted(p.name for p in cache.iterdir()) == ["debs"]


def test_a_base_system_being_built_elsewhere_is_waited_for_not_built_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # .ci/run builds the base beside its installs; the scenario, started meanwhile, waits for it.
    import fcntl
    import threading

    import tests.boot.appliance as appliance

    built: list[Path] = []

    def mmdebstrap(tar: Path) -> Path:
        built.append(tar)
        return tar

    monkeypatch.setattr(appliance, "_mmdebstrap", mmdebstrap)
    waiting = threading.Event()
    monkeypatch.setattr(appliance, "log", lambda msg: waiting.set() if "waiting" in msg else None)
    got: list[Path] = []
    with (tmp_path / "base.lock").open("w") as other:  # another process's build, under way
        fcntl.flock(other, fcntl.LOCK_EX)
        scenario = threading.Thread(target=lambda: got.append(appliance.base_rootfs(tmp_path)))
        scenario.start()
        assert waiting.wait(60)  # the scenario waits on the lock...
        appliance.base_tar(tmp_path).write_bytes(b"tar")  # ...while the other build ends
    scenario.join(60)
    assert got == [appliance.base_tar(tmp_path)] and built == []
    # Alone, it builds.
    appliance.base_tar(tmp_path).unlink()
    assert appliance.base_rootfs(tmp_path) == appliance.base_tar(tmp_path) and built == got


def test_a_qmp_answer_is_the_one_to_its_own_question(tmp_path: Path) -> None:
    import socket
    import threading

    from tests.boot.appliance import Guest, JsonSocket

    path = tmp_path / "qmp"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.listen(1)

    def qemu() -> None:
        conn, _ = server.accept()
        asked = json.loads(conn.makefile().readline())
        late = {"return": "an earlier question's", "id": asked["id"] - 1}
        event = {"event": "RESET"}
        conn.sendall(b"".join(json.dumps(m).encode() + b"\n" for m in (late, event)))
        conn.sendall(json.dumps({"return": "this one's", "id": asked["id"]}).encode() + b"\n")
        conn.close()

    threading.Thread(target=qemu, daemon=True).start()
    guest = Guest.__new__(Guest)  # its QMP side only, no QEMU
    guest._qmp_lock, guest._qmp_asked, guest.qmp = threading.Lock(), 5, JsonSocket(path)
    assert guest.command("screendump", filename="x") == "this one's"
    server.close()


# --- the booted machine ---------------------------------------------------------------------------


@pytest.mark.needs_vm
def test_the_image_is_built_by_the_install_guide(observations: dict[str, Any]) -> None:
    assert "build" not in observations["errors"], _explain(observations, "build")
    assert "booted_lines" in observations, _explain(observations, "first_boot")
    failed = [r for r in observations["booted_lines"] if r["exit"] != 0]
    assert not failed, failed


@pytest.mark.needs_vm
def test_the_run_leaves_no_disk_image_behind(observations: dict[str, Any]) -> None:
    """Each run left its 1.2 GB disk image in /tmp (seen: five of them on one machine)."""
    if "_out" in observations:  # not when the observations were given (COMPANION_BOOT_OBSERVATIONS)
        assert not (Path(observations["_out"]) / "machine" / "disk.img").exists()
        assert (Path(observations["_out"]) / "observations.json").exists()


def _steady(watch: list[dict[str, str]]) -> None:
    # 60 s, a look every 5 s or so (a look through the guest agent takes seconds under TCG).
    assert len(watch) >= 6 and float(watch[-1].get("t", 60)) >= 60, watch
    assert all(w["ActiveState"] == "active" for w in watch), watch
    assert {w["NRestarts"] for w in watch} == {"0"}, watch
    assert len({w["MainPID"] for w in watch}) == 1, watch


@pytest.mark.needs_vm
def test_the_unit_stays_active_with_keyboard_buttons(observations: dict[str, Any]) -> None:
    assert "keyboard_watch" in observations, _explain(observations)
    _steady(observations["keyboard_watch"])


@pytest.mark.needs_vm
def test_the_unit_stays_active_with_gpio_configured_on_a_machine_without_gpio(
    observations: dict[str, Any],
) -> None:
    assert "gpio_watch" in observations, _explain(observations)
    _steady(observations["gpio_watch"])
    assert "Traceback" not in observations["gpio_log"], observations["gpio_log"]


@pytest.mark.needs_vm
def test_the_kiosk_is_started_by_its_screen_not_before_it(observations: dict[str, Any]) -> None:
    """Under TCG virtio-gpu's card comes a minute into the boot: a kiosk started with the rest
    found no screen. The unit is started by the screen's device (hardware/99-companion-screen.rules)."""
    device, kiosk = observations.get("screen_device_s"), observations.get("kiosk_first_start_s")
    assert isinstance(device, float) and isinstance(kiosk, float), (device, kiosk, _explain(observations))
    assert kiosk >= device, f"the kiosk started at {kiosk} s, its screen came at {device} s"


@pytest.mark.needs_vm
def test_the_table_screen_is_drawn_on_the_drm_device(observations: dict[str, Any]) -> None:
    """A QMP screendump of the kmsdrm screen is the host's snapshot of the same game: at boot,
    after a restart, after a kill -9, and with GPIO buttons that cannot work."""
    assert "table_match" in observations, _explain(observations, "screen", "first_boot")
    assert observations["table_match"] >= MATCH, observations["table_match"]
    assert observations["black_match"] < MATCH  # the tolerance does not admit a black screen
    assert observations.get("kill9_table_match", 0) >= MATCH, _explain(observations, "screen_after_kill")
    for frame in ("boot_to_first_frame_s", "gpio_first_frame_s"):
        assert isinstance(observations.get(frame), float), (frame, observations.get(frame))


@pytest.mark.needs_vm
def test_a_killed_companion_is_restarted_and_resumes_the_same_game(observations: dict[str, Any]) -> None:
    assert "kill9" in observations, _explain(observations, "kill9")
    k = observations["kill9"]
    assert k["after"]["ActiveState"] == "active" and k["after"]["NRestarts"] == "1", k
    assert k["after"]["MainPID"] != k["before"]["MainPID"]
    assert observations["game_id"] in observations["kill9_games"]
    # The same game, not a new one: the last game's log is the one before the kill.
    assert observations["kill9_events_after"] == observations["kill9_events_before"]


@pytest.mark.needs_vm
def test_a_pulled_plug_loses_no_journaled_event(observations: dict[str, Any]) -> None:
    assert "after_cut_events" in observations, _explain(observations, "before_cut", "after_cut")
    before = observations["committed_before_cut"]
    after = observations["after_cut_events"]
    assert observations["presses_journaled"] >= 3  # the keys reached the game through evdev
    assert after[: len(before)] == before
    assert observations["game_id"] in observations["after_cut_games"]
    assert observations["after_cut_unit"]["ActiveState"] == "active"


@pytest.mark.needs_vm
def test_the_sandbox_exposure_is_at_most_2(observations: dict[str, Any]) -> None:
    # docs/kiosk.md's check block ran as it stands: every line exits 0, and its `security`
    # line gives the exposure.
    assert "kiosk_lines" in observations, _explain(observations, "security")
    failed = [r for r in observations["kiosk_lines"] if r["exit"] != 0]
    assert not failed, failed
    m = re.search(
        r"Overall exposure level for companion\.service: (\d+\.\d+)", observations.get("security", "")
    )
    assert m, observations.get("security")
    assert float(m.group(1)) <= 2.0


@pytest.mark.needs_vm
def test_phones_on_open_the_sandbox_through_the_generator(observations: dict[str, Any]) -> None:
    # docs/kiosk.md's phones blocks ran after the check: `[web]` on, daemon-reload, and the real
    # systemd ran hardware/companion-web-generator, whose drop-in `systemctl cat` then shows.
    assert "kiosk_lines" in observations, _explain(observations, "security")
    cat = [r for r in observations["kiosk_lines"] if r["line"].startswith("systemctl cat companion")]
    assert cat, observations["kiosk_lines"]
    assert "50-companion-web.conf" in cat[0]["out"] and "IPAddressAllow=" in cat[0]["out"], cat[0]


@pytest.mark.needs_vm
def test_the_shader_cache_outlives_a_restart(observations: dict[str, Any]) -> None:
    # RuntimeDirectoryPreserve=restart: the kiosk restarted after its kill -9 finds the shaders
    # Mesa compiled before (the same files, not written again), instead of compiling them anew.
    assert "shader_cache_after_restart" in observations, _explain(observations, "kill9")
    before = dict(f.rsplit(" ", 1) for f in observations["shader_cache_before_kill"])
    after = dict(f.rsplit(" ", 1) for f in observations["shader_cache_after_restart"])
    assert before, "Mesa wrote no shader cache in /run/companion/cache"
    assert set(before) <= set(after), sorted(set(before) - set(after))
    # Kept, not removed and written anew by the restarted kiosk (its index may be updated).
    assert any(after[f] == mtime for f, mtime in before.items()), (before, after)


# --- real kernel edges (trixie: gpio-sim) ---------------------------------------------------------


def _sim(observations: dict[str, Any]) -> None:
    if not observations.get("gpio_sim"):
        pytest.skip(f"{observations.get('suite')}'s kernel has no gpio-sim: no simulated header")
    assert "sim_events" in observations, _explain(observations, "gpio_config", "gpio", "kernel_edges")


def _replay(events: list[str], tmp_path: Path) -> dict[str, Any]:
    import subprocess
    import sys

    log = tmp_path / "sim.jsonl"
    log.write_text("\n".join(events) + "\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "companion", "replay", str(log), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    return dict(json.loads(done.stdout))


def _presses(events: list[str]) -> list[dict[str, Any]]:
    return [e for e in map(json.loads, events) if e.get("type") == "press"]


@pytest.mark.needs_vm
@pytest.mark.gpio_sim
def test_the_kernel_edges_reach_the_journal_in_their_true_order(
    observations: dict[str, Any], tmp_path: Path
) -> None:
    """Seats pressed by their lines' pulls 1 ms apart, the first one's contact bouncing: the
    journal has one press each, stamped as the kernel stamped the first edge (each gap between
    two presses within what the writes that made them allow), and the referee's confirm makes
    the last of them, Chloé, the one who draws."""
    _sim(observations)
    from tests.boot.scenario import LOSER, SLAP

    assert observations["gpio_chip"].endswith(" gpio 660"), observations["gpio_chip"]  # the udev rule
    # The bounce must end within the debounce's lockout, where every edge after the press is
    # bounce: beyond it a second press would be right. Under TCG on a loaded host each pull
    # write takes 1 to 10 ms, so the bounce spans more than the 2 ms glitch resolution (a trixie
    # run: 17.6 ms); one press stamped at its first edge is the answer either way.
    bounce = observations["sim_slap"].get("Bob bounce")
    assert bounce and bounce[1] - bounce[0] < DEFAULT_LOCKOUT_NS, f"the rig bounced too slowly: {bounce}"
    pressed = [e["player"] for e in _presses(observations["sim_after_slap"])]
    assert sorted(pressed) == sorted(name for name, _ in SLAP), pressed  # one press each, bounces none
    state = _replay(observations["sim_events"], tmp_path)
    order = [p["player"] for p in state["last_slap"]["order"]]
    assert order == [name for name, _ in SLAP], state["last_slap"]
    assert state["last_slap"]["losers"] == [LOSER] and state["owed_draws"] == [LOSER], state
    stamp = {p["player"]: p["t_us"] for p in state["last_slap"]["order"]}
    windows = {k: v for k, v in observations["sim_slap"].items() if " " not in k}
    for (a, _), (b, _) in itertools.pairwise(SLAP):
        gap = stamp[b] - stamp[a]
        low = (windows[b][0] - windows[a][1]) / 1000 - 1  # µs, one of rounding
        high = (windows[b][1] - windows[a][0]) / 1000 + 1
        assert low <= gap <= high, (a, b, gap, low, high)
    assert state["last_slap"]["margin_us"] == stamp[LOSER] - stamp[SLAP[-2][0]]


@pytest.mark.needs_vm
@pytest.mark.gpio_sim
def test_the_led_lines_show_who_must_draw(observations: dict[str, Any]) -> None:
    """Read back from the simulated lines: after the verdict the loser's LED blinks (its line
    seen high and low) and every other seat's is dark."""
    _sim(observations)
    from tests.boot.scenario import LEDS, LOSER

    seen = observations["sim_leds_verdict"]
    for name, pin in LEDS.items():
        levels = set(seen[str(pin)])
        assert levels == ({0, 1} if name == LOSER else {0}), (name, pin, seen[str(pin)])


@pytest.mark.needs_vm
@pytest.mark.gpio_sim
def test_a_burst_past_the_kernel_buffer_leaves_the_table_up(observations: dict[str, Any]) -> None:
    """1,400 edges on one line while the kiosk's reader was stopped: the kernel dropped the
    oldest; the kiosk carries on, the same process, and no press came of pulses that short.
    Under TCG on a loaded host the guest now and then loses its core mid-pulse: a pulse held
    2 ms or more (``held``, the presser's) is a press by the debounce's rules, as a real contact
    held that long would be, so at most one press each (a run saw one in a burst of 700)."""
    from companion.inputs.debounce import DEFAULT_GLITCH_NS

    _sim(observations)
    unit = observations["sim_unit_after_burst"]
    assert unit["ActiveState"] == "active" and unit["MainPID"] == observations["sim_pid_before_burst"], unit
    held = observations["sim_burst"].get("held", [])
    assert all(end - start >= DEFAULT_GLITCH_NS for start, end in held), held
    presses = _presses(observations["sim_after_burst"])
    assert len(presses) <= len(held), (presses, held)


@pytest.mark.needs_vm
@pytest.mark.gpio_sim
def test_the_screen_after_the_kernel_slap_is_the_snapshot(observations: dict[str, Any]) -> None:
    _sim(observations)
    assert observations.get("sim_table_match", 0) >= MATCH, _explain(observations, "kernel_edges")
    assert observations["edge_to_frame_ms"], observations.get("sim_frames_ns")

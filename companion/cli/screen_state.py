"""Whether the table's screen is here, on its way, or absent, from the kernel's view (sysfs)
alone: ``companion doctor`` tells a late screen from an absent one with it (the kiosk's unit waits
for the screen's device; docs/kiosk.md)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

# The devices a DRM driver makes a screen of: any PCI display controller (class 0x03), a virtio
# GPU (virtio device 16, QEMU's virtio-gpu), the Pi's VideoCore (vc4 on a Pi 4, its vc6 on a Pi 5).
_VIRTIO_GPU = "0x0010"
_PI_GPU = re.compile(r"brcm,bcm\d+-vc\d")


@dataclass(frozen=True, slots=True)
class Screen:
    """Where the screen stands: ``ready`` (a DRM card with outputs, its node in /dev/dri),
    ``late`` (on its way: the kernel has its graphics device but the card or its node is not
    there yet) or ``absent``; ``en``/``fr`` say what was seen."""

    state: Literal["ready", "late", "absent"]
    en: str = ""
    fr: str = ""


def _graphics_devices(sysfs: Path) -> list[Path]:
    """The display controllers the kernel knows, as sysfs device folders (resolved)."""
    found: list[Path] = []
    virtio_parents: set[Path] = set()
    for dev in sorted((sysfs / "bus" / "virtio" / "devices").glob("*")):
        if _read(dev / "device") == _VIRTIO_GPU:
            found.append(dev.resolve())
            virtio_parents.add(dev.resolve().parent)  # its PCI function is the same device
    for dev in sorted((sysfs / "bus" / "pci" / "devices").glob("*")):
        if _read(dev / "class").startswith("0x03") and dev.resolve() not in virtio_parents:
            found.append(dev.resolve())
    for dev in sorted((sysfs / "bus" / "platform" / "devices").glob("*")):
        if _PI_GPU.search(_read(dev / "modalias")):
            found.append(dev.resolve())
    return found


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return ""


def screen_state(sysfs: Path, dri: Path, udev_queue: Path) -> Screen:
    """Whether a screen is here, on its way, or absent: the kernel's view (sysfs), not SDL's.
    Under emulation a virtio GPU's card came two minutes after power-on (udev loading its
    driver); a Pi's comes within seconds, but a kiosk (or doctor) started first still finds no
    screen. Late needs a sign that it is coming: udev still at work, or a driver that has the
    device (vc4 binds first and makes its card once its parts are there). Otherwise it is absent."""
    drm = sysfs / "class" / "drm"
    cards = sorted(p for p in drm.glob("card*") if re.fullmatch(r"card\d+", p.name))
    outputs = {card.name: sorted(drm.glob(f"{card.name}-*")) for card in cards}
    with_outputs = [card for card in cards if outputs[card.name]]
    for card in with_outputs:
        if (dri / card.name).exists():
            return Screen("ready", f"/dev/dri/{card.name}", f"/dev/dri/{card.name}")
    udev_busy = udev_queue.exists()
    if with_outputs:
        name = with_outputs[0].name
        if udev_busy:
            return Screen(
                "late",
                f"the kernel has made {name}, udev has not made /dev/dri/{name} yet",
                f"le noyau a créé {name}, udev n'a pas encore créé /dev/dri/{name}",
            )
        return Screen(
            "absent",
            f"the kernel has {name} but there is no /dev/dri/{name}",
            f"le noyau a {name} mais il n'y a pas de /dev/dri/{name}",
        )
    served = {(card / "device").resolve() for card in cards}
    unserved = [dev for dev in _graphics_devices(sysfs) if dev not in served]
    for dev in unserved:
        driver = dev / "driver"
        if driver.exists():
            name = driver.resolve().name
            return Screen(
                "late",
                f"the driver {name} has the graphics device {dev.name}, its DRM card is not there yet",
                f"le pilote {name} a le périphérique graphique {dev.name}, sa carte DRM n'est pas encore là",
            )
    if unserved and udev_busy:
        name = unserved[0].name
        return Screen(
            "late",
            f"the kernel has the graphics device {name}, udev is still loading drivers",
            f"le noyau a le périphérique graphique {name}, udev charge encore les pilotes",
        )
    if unserved:
        name = unserved[0].name
        return Screen(
            "absent",
            f"no driver has the graphics device {name}",
            f"aucun pilote n'a le périphérique graphique {name}",
        )
    if cards:
        names = ", ".join(card.name for card in cards)
        return Screen("absent", f"{names}: no display output", f"{names} : aucune sortie d'écran")
    return Screen("absent", "no graphics device", "aucun périphérique graphique")

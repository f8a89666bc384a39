"""The Voila server behind `housing-lab classroom`: the room page, its kernels bounded.

It is Voila on the room notebook (housing_lab/apps/classroom/room.ipynb) with the room page
gated (housing_lab/server/room_kernels.py): a request without a ticket gets a small page that
trades the link's key for one, so a kernel starts only for a page holding a valid key, at most
`RoomKernels.per_key` per key, and is shut down once its page has been gone for
`RoomKernels.cull_after` seconds. The terminal stays quiet (`QuietVoila`): no Voila banner (the
classroom command prints the room's own links), no trust or per-kernel TCP warnings.

    python -m housing_lab.apps.room_server ROOM.ipynb --Voila.base_url=/room/ --port=8866
"""

from __future__ import annotations

import sys
from typing import Any, ClassVar

from voila.tornado.handler import TornadoVoilaHandler

from housing_lab.apps.server import QuietVoila, quiet_arguments
from housing_lab.server.room_kernels import SETTINGS_KEY, GatedRoomPage, RoomKernels


class RoomPageHandler(GatedRoomPage, TornadoVoilaHandler):
    """Voila's page for the room notebook, behind the key gate."""


class RoomVoila(QuietVoila):
    """Voila serving one room notebook, its kernels started and ended by `RoomKernels`."""

    name = "housing-lab-room"
    classes: ClassVar[list] = [*QuietVoila.classes, RoomKernels]

    def init_settings(self) -> dict[str, Any]:
        settings = super().init_settings()
        settings[SETTINGS_KEY] = RoomKernels(self.kernel_manager, parent=self)
        return settings

    def init_handlers(self) -> list:
        """Voila's handlers, its page handler replaced by the gated one."""
        gated = TornadoVoilaHandler, RoomPageHandler
        return [
            (route, gated[1] if handler is gated[0] else handler, *rest)
            for route, handler, *rest in super().init_handlers()
        ]


def main(argv: list[str] | None = None) -> None:
    arguments = argv if argv is not None else sys.argv[1:]
    RoomVoila.launch_instance([*quiet_arguments(), "--RoomVoila.say_address=False", *arguments])


if __name__ == "__main__":
    main()

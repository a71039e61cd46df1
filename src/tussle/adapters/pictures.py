"""Pictures of a game for environments' ``rgb_array`` rendering: the board as the terminal shows it.

Every game renders itself as text (``State.render``: the board, the hands, the
scores), drawn here in a monospaced font onto an RGB array, so that Gymnasium's
video recorder and any image tool can show a game. All pictures of one
environment keep the size of the first, so frames make a video: text that
grows later is cut at the edge, which the first frame's margin makes rare.
"""

from __future__ import annotations

from tussle.adapters import require

require(__name__, "gymnasium", "numpy")

import functools

import numpy as np
import numpy.typing as npt
from matplotlib import font_manager
from PIL import Image, ImageDraw, ImageFont

#: Points of the text; a cell is about 8 by 17 pixels at this size.
FONT_SIZE = 14
BACKGROUND = (250, 248, 240)
INK = (20, 24, 32)
MARGIN = 12
#: Room the first picture leaves for text that grows later: this much wider and taller.
ROOM = 1.25


@functools.cache
def _font() -> ImageFont.FreeTypeFont:
    # matplotlib, one of tussle's dependencies, ships DejaVu Sans Mono: no font to install.
    return ImageFont.truetype(font_manager.findfont("DejaVu Sans Mono"), FONT_SIZE)


def text_size(text: str) -> tuple[int, int]:
    """The (width, height) in pixels that ``text`` takes with the margins and room to grow.

    >>> w, h = text_size("ab\\ncd")
    >>> w > 0 and h > 0
    True
    """
    left, top, right, bottom = ImageDraw.Draw(Image.new("RGB", (1, 1))).multiline_textbbox(
        (0, 0), text or " ", font=_font()
    )
    return int((right - left) * ROOM) + 2 * MARGIN, int((bottom - top) * ROOM) + 2 * MARGIN


def text_picture(text: str, size: tuple[int, int] | None = None) -> npt.NDArray[np.uint8]:
    """``text`` drawn dark on light as an array of shape (height, width, 3).

    ``size`` (width, height) fixes the picture's size; by default it fits the text.

    >>> text_picture("A . B", (80, 40)).shape
    (40, 80, 3)
    """
    width, height = size or text_size(text)
    image = Image.new("RGB", (width, height), BACKGROUND)
    ImageDraw.Draw(image).multiline_text((MARGIN, MARGIN), text, font=_font(), fill=INK)
    return np.asarray(image, dtype=np.uint8).copy()

"""The book's plotting style: arrows visible, figures sized for the column."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest

from ldpnb.repro.plotting import COLUMN_INCHES, color, column_figsize, set_style


def _dark_pixels(fig) -> int:
    fig.canvas.draw()
    rgb = np.asarray(fig.canvas.buffer_rgba())[..., :3].astype(int)
    return int((rgb.sum(axis=2) < 500).sum())  # clearly darker than the background


def test_annotation_arrows_are_visible():
    """seaborn's white patch edges made `annotate` arrows invisible on the white background."""
    set_style()
    fig, ax = plt.subplots(figsize=(3, 3))
    ax.set_axis_off()
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    blank = _dark_pixels(fig)
    ax.annotate("", xy=(0.9, 0.5), xytext=(0.1, 0.5), arrowprops=dict(arrowstyle="->"))
    assert _dark_pixels(fig) - blank > 100, "the arrow is not drawn in a dark colour"
    plt.close(fig)


def test_bars_get_no_white_edges():
    set_style()
    fig, ax = plt.subplots()
    (bar,) = ax.bar([0], [1])
    assert bar.get_edgecolor()[3] == 0.0  # no edge unless asked for
    plt.close(fig)


@pytest.mark.parametrize("ncols,nrows", [(1, 1), (2, 1), (2, 3)])
def test_column_figsize_fills_the_column(ncols, nrows):
    w, h = column_figsize(ncols, nrows)
    assert w == COLUMN_INCHES and h > 0
    assert column_figsize(ncols, nrows + 1)[1] > h


def test_column_figsize_refuses_zero_panels():
    with pytest.raises(ValueError):
        column_figsize(0)


def test_colors_are_stable():
    assert color("IBU") == color("ibu") == "#0072B2"
    assert color("some new name") == color("Some New Name")

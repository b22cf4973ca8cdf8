"""The linear second opinion on a rank glyph (``vision.corner_linear``)."""

import numpy as np

from vision import corner_linear


def _unit(rows):
    rows = rows - rows.mean(axis=1, keepdims=True)
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def test_it_names_a_glyph_of_its_classes_clearly_and_a_mark_as_no_index():
    """Three "ranks" and a "no index" class, each a noisy copy of its own
    pattern: a fresh copy of a rank is named by a clear margin, a fresh mark
    goes to the "no index" class, and a blend of two ranks gets no clear
    margin (what ``corner_read`` asks before it takes the classifier's word)."""
    rng = np.random.default_rng(3)
    patterns = rng.standard_normal((4, 200))
    labels = np.repeat(np.arange(4), 60)
    rows = _unit(patterns[labels] + 0.8 * rng.standard_normal((len(labels), 200)))
    weights = corner_linear.fit(rows, labels, 4)
    for k in range(4):
        named, margin = corner_linear.best(weights, _unit(patterns[k:k + 1] + 0.8 * rng.standard_normal((1, 200)))[0])
        assert named == k and margin >= 0.7, (k, named, margin)
    _, margin = corner_linear.best(weights, _unit(0.5 * (patterns[0:1] + patterns[1:2]))[0])
    assert margin < 0.7


def test_a_model_that_learnt_nothing_names_nothing():
    weights = corner_linear.fit(np.zeros((0, 20), np.float32), np.zeros(0, np.int32), 3)
    assert corner_linear.best(weights, np.ones(20, np.float32)) == (None, 0.0)

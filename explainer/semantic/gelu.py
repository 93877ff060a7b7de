"""BERT's activation, GELU with the error function (``hidden_act: "gelu"``: ``x · Φ(x) = ½ x (1 + erf(x / √2))``),
in float32 NumPy without SciPy.

NumPy has no ``erf``. GELU is computed through the complementary error function, ``GELU(x) = ½ x erfc(−x/√2)``,
with the Chebyshev fit of ``erfc`` from Numerical Recipes (``erfcc``, fractional error below 1.2e-7 for every
argument): for ``z = |x|/√2``, ``t = 1 / (1 + z/2)`` and ``erfc(z) = t · exp(−z² + P(t))``; then ``GELU(x)`` is
``½ x erfc(z)`` for ``x < 0`` and ``x − ½ x erfc(z)`` otherwise (``erfc(−z) = 2 − erfc(z)``), that is
``max(x, 0) − ½ |x| erfc(z)`` for every ``x`` (one subtraction instead of choosing between two values, which NumPy
does slowly: ``copyto(where=)`` took half of the function's time). The relative error stays at the level of
float32 rounding (torch computes ``erf`` in float32 too), far below what the golden vectors' 1e-5 can see
(the test suite measures it against ``math.erf``).

The activations are the largest array of the forward pass (tokens × 1,536), so the work is done in place, a block
at a time (a block stays in the processor's cache across the ~25 NumPy operations), on the calling thread.
"""
from __future__ import annotations

import numpy as np

__all__ = ["gelu_", "ERFC_COEFFICIENTS"]

#: Numerical Recipes' erfcc: P(t) = c0 + t·(c1 + t·(c2 + ... + t·c9))
ERFC_COEFFICIENTS = (-1.26551223, 1.00002368, 0.37409196, 0.09678418, -0.18628806, 0.27886807, -1.13520398,
                     1.48851587, -0.82215223, 0.17087277)
_SQRT1_2 = np.float32(np.sqrt(0.5))
_C = tuple(np.float32(c) for c in ERFC_COEFFICIENTS)
_HALF = np.float32(0.5)
_ONE = np.float32(1.0)
_ZERO = np.float32(0.0)
_BLOCK = 32_768         # elements per block


def _gelu_block(x: np.ndarray, z: np.ndarray, t: np.ndarray, p: np.ndarray) -> None:
    """GELU of the 1-D float32 block ``x`` in place (``z``, ``t``, ``p``: scratch arrays of its size)."""
    np.abs(x, out=z)
    z *= _SQRT1_2                         # z = |x| / √2
    np.multiply(z, _HALF, out=t)
    t += _ONE
    np.reciprocal(t, out=t)               # t = 1 / (1 + z/2)
    np.multiply(t, _C[9], out=p)
    p += _C[8]
    for c in _C[7:0:-1]:
        p *= t
        p += c
    p *= t
    p += _C[0]                            # P(t)
    z *= z
    np.subtract(p, z, out=p)              # −z² + P(t)
    np.exp(p, out=p)
    p *= t                                # erfc(|x| / √2)
    p *= x
    p *= _HALF
    np.abs(p, out=p)                      # ½ |x| erfc(|x|/√2)
    np.maximum(x, _ZERO, out=x)
    x -= p                                # max(x, 0) − ½ |x| erfc(|x|/√2)


def gelu_(x: np.ndarray) -> np.ndarray:
    """GELU of a C-contiguous float32 array, in place; returns ``x``."""
    flat = x.reshape(-1)
    n = flat.size
    size = min(_BLOCK, n) or 1
    z = np.empty(size, np.float32)
    t = np.empty(size, np.float32)
    p = np.empty(size, np.float32)
    for start in range(0, n, size):
        block = flat[start:start + size]
        k = block.size
        _gelu_block(block, z[:k], t[:k], p[:k])
    return x

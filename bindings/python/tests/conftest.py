"""Shared helpers. The package under test is the installed ``libaead`` (see test.sh)."""

import os
import random
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
VECTORS = REPO.parent / "shared" / "vectors"


def vectors_dir() -> Path:
    """The shared vectors directory; a missing directory FAILS the calling test (never a skip)."""
    if not VECTORS.is_dir():
        pytest.fail("test vectors not found at %s (expected ../shared/vectors next to the repo)" % VECTORS)
    return VECTORS


@pytest.fixture
def rng(request):
    """A seeded random.Random per test; the seed is printed on failure (set LIBAEAD_TEST_SEED to replay)."""
    seed = int(os.environ.get("LIBAEAD_TEST_SEED", "0")) or random.SystemRandom().randrange(1 << 63)
    print("LIBAEAD_TEST_SEED=%d" % seed)
    return random.Random(seed)

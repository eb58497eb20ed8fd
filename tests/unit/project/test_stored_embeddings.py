"""The tests' session embedder keeps its vectors on disk (tests/stored_embeddings.py): a later session reads back,
exactly, what an earlier one computed with the real model, and computes only what is new."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.stored_embeddings import PROBES, StoredEmbedder, store_folder

pytestmark = pytest.mark.slow  # the real embedding model

TEXTS = ["Casey voted to banish Riley.", "I think player-4 is Merlin.", "Parker was murdered in the night."]


def test_a_later_session_reads_back_what_an_earlier_one_computed_and_computes_only_the_new(tmp_path: Path) -> None:
    first = StoredEmbedder(tmp_path)
    computed = first.encode(TEXTS)
    assert first.read_back == 0 and first.encoded == len(PROBES) + len(TEXTS)
    assert len(list(tmp_path.glob("onnx-*.sqlite")) + list(tmp_path.glob("torch-*.sqlite"))) == 1

    later = StoredEmbedder(tmp_path)
    again = later.encode([*TEXTS, "Morgan said nothing at breakfast."])
    assert later.read_back == len(TEXTS) and later.encoded == len(PROBES) + 1  # only the new text met the model
    np.testing.assert_array_equal(again[:3], computed)
    fresh = StoredEmbedder(None).encode(TEXTS)  # what the model gives them without any store
    assert float((fresh * again[:3]).sum(axis=1).min()) > 0.9999


def test_the_store_is_beside_the_onnx_export_unless_told_otherwise(tmp_path: Path) -> None:
    assert store_folder({"XDG_CACHE_HOME": str(tmp_path)}) == tmp_path / "graphmem" / "test-embeddings"
    assert store_folder({"GRAPHMEM_TEST_EMBEDDINGS": str(tmp_path / "v")}) == tmp_path / "v"
    assert store_folder({"GRAPHMEM_TEST_EMBEDDINGS": "off"}) is None

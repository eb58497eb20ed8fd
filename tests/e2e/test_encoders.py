"""The embedding model under ONNX Runtime gives PyTorch's vectors (graphmem/encoders.py): real model, real texts.

A user switches backends with ``[embedding] backend`` and expects the same recall either way; the ONNX file is
made once per model and cache directory, and a damaged one is made again.
"""

from __future__ import annotations

import json
import logging
import shutil
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from bench.bench_encoders import real_messages
from graphmem.embedding import Embedder, resolve_model_path
from graphmem.encoders import AGREEMENT, OnnxEncoder, TorchEncoder, load_encoder, onnx_file_for
from graphmem.errors import ConfigError
from graphmem.settings import load_settings

pytestmark = pytest.mark.slow
MODEL = resolve_model_path("all-MiniLM-L6-v2")


@pytest.fixture(scope="module")
def onnx_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("onnx-cache")


@pytest.fixture(scope="module")
def torch_encoder() -> TorchEncoder:
    return TorchEncoder(MODEL)


@pytest.fixture(scope="module")
def onnx_encoder(onnx_cache: Path) -> OnnxEncoder:
    encoder = load_encoder(MODEL, "onnx", cache_dir=onnx_cache)
    assert isinstance(encoder, OnnxEncoder), "the default model must run under ONNX Runtime"
    return encoder


def test_onnx_vectors_are_pytorch_vectors(onnx_encoder: OnnxEncoder, torch_encoder: TorchEncoder,
                                          real_games_path: Path) -> None:
    # "ok " * 400 is 400 tokens: the truncation to the model's 256 must agree too
    texts = real_messages(real_games_path, 200) + ["", "   ", "Is Parker a traitor?", "Ça va, Zoë? 🙂", "ok " * 400]
    assert len(texts) > 100
    onnx = onnx_encoder.encode(texts, batch_size=64)
    reference = torch_encoder.encode(texts, batch_size=64)
    assert onnx.shape == reference.shape == (len(texts), 384)
    assert onnx.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(onnx, axis=1), 1.0, atol=1e-5)
    assert float((onnx * reference).sum(axis=1).min()) >= AGREEMENT


def test_a_text_gets_the_same_vector_alone_and_in_any_batch(onnx_encoder: OnnxEncoder) -> None:
    texts = ["Riley", "Riley told me in private that Casey is a traitor and will murder again tonight.", "why?"]
    alone = np.stack([onnx_encoder.encode([t], batch_size=1)[0] for t in texts])
    together = onnx_encoder.encode(texts[::-1], batch_size=64)[::-1]
    np.testing.assert_allclose(alone, together, atol=1e-5)  # padding never leaks into a shorter text's vector


def test_concurrent_callers_each_get_their_own_texts_vectors(onnx_cache: Path, onnx_encoder: OnnxEncoder) -> None:
    # what a server's eight clients do: each thread asks for its own topic while passes of the others run, on as
    # many lanes as there are cores; every caller must get the vectors of its own texts, each text embedded once
    embedder = Embedder(onnx_cache=onnx_cache)
    assert embedder.encoder.backend == "onnx" and embedder.lanes >= 1
    topics = [f"who did player {i} vote against on day {i % 5}?" for i in range(24)]
    expected = onnx_encoder.encode(topics, batch_size=1)
    start = threading.Barrier(12)

    def ask(i: int) -> np.ndarray:
        start.wait()
        return embedder.encode([topics[i], topics[i + 12]])

    with ThreadPoolExecutor(12) as pool:
        got = list(pool.map(ask, range(12)))
    for i, vectors in enumerate(got):
        np.testing.assert_allclose(vectors, expected[[i, i + 12]], atol=1e-5)
    assert embedder.encoded == 24 and 1 <= embedder.passes <= 12
    again = embedder.encode(topics)  # all cached now: no pass
    np.testing.assert_allclose(again, expected, atol=1e-5)
    assert embedder.encoded == 24


def test_the_onnx_file_is_made_once_and_made_again_when_damaged(onnx_encoder: OnnxEncoder, onnx_cache: Path,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    target = onnx_file_for(MODEL, onnx_cache)
    assert target.is_file()
    made = target.stat().st_mtime_ns
    assert isinstance(load_encoder(MODEL, "onnx", cache_dir=onnx_cache), OnnxEncoder)
    assert target.stat().st_mtime_ns == made, "a second load reuses the file"
    target.write_bytes(b"not a model")
    with caplog.at_level(logging.WARNING, logger="graphmem.encoders"):
        again = load_encoder(MODEL, "onnx", cache_dir=onnx_cache)
    assert isinstance(again, OnnxEncoder)
    assert "cannot be loaded" in caplog.text
    assert target.stat().st_size > 1_000_000
    vector = again.encode(["Is Parker a traitor?"], 8)[0]
    assert float(vector @ onnx_encoder.encode(["Is Parker a traitor?"], 8)[0]) >= AGREEMENT


def test_every_installation_of_a_model_shares_one_onnx_file(tmp_path: Path, onnx_cache: Path) -> None:
    copy = tmp_path / "venv2" / "model"
    shutil.copytree(MODEL, copy)  # another virtual environment's copy of the same package
    assert onnx_file_for(str(copy), onnx_cache) == onnx_file_for(MODEL, onnx_cache)
    assert (onnx_cache / "digests.json").is_file(), "a weights file is hashed once, then remembered"
    config = json.loads((copy / "config.json").read_text())
    (copy / "config.json").write_text(json.dumps({**config, "layer_norm_eps": 1e-6}))
    assert onnx_file_for(str(copy), onnx_cache) != onnx_file_for(MODEL, onnx_cache), "another model, another file"


def test_a_model_onnx_cannot_run_falls_back_to_pytorch(tmp_path: Path, onnx_cache: Path) -> None:
    model = tmp_path / "cls-pooling"
    shutil.copytree(MODEL, model, symlinks=True,
                    ignore=lambda _, names: [n for n in names if n == "model.safetensors"])
    (model / "model.safetensors").symlink_to(Path(MODEL) / "model.safetensors")
    pooling = json.loads((model / "1_Pooling" / "config.json").read_text())
    pooling.update(pooling_mode_mean_tokens=False, pooling_mode_cls_token=True)
    (model / "1_Pooling" / "config.json").write_text(json.dumps(pooling))
    encoder = load_encoder(str(model), "onnx", cache_dir=onnx_cache)
    assert encoder.backend == "torch"
    assert encoder.encode(["hello"], 8).shape == (1, 384)


def test_the_backend_is_a_setting(tmp_path: Path) -> None:
    assert load_settings(environ={}, cwd=tmp_path).embedding_backend == "onnx"
    assert load_settings(environ={"GRAPHMEM_EMBEDDING_BACKEND": "torch"}, cwd=tmp_path).embedding_backend == "torch"
    (tmp_path / "graphmem.toml").write_text('[embedding]\nbackend = "tensorflow"\n')
    with pytest.raises(ConfigError, match=r"embedding.backend.*onnx, torch.*tensorflow"):
        load_settings(environ={}, cwd=tmp_path)
    embedder = Embedder(backend="torch")
    assert embedder.encoder.backend == "torch"
    with pytest.raises(ValueError, match="unknown embedding backend"):
        Embedder(backend="tensorflow")  # type: ignore[arg-type]

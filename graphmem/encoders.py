"""The two ways graphmem runs a sentence-transformers model: ONNX Runtime (the default) and PyTorch.

Both give the same vectors: mean pooling of the transformer's last hidden state over the real tokens, L2-normalised,
float32, the way sentence-transformers computes them for a Transformer + mean-Pooling model such as
all-MiniLM-L6-v2 (cosine >= 0.9999 to PyTorch's vector for every text, checked when the ONNX file is made and in
tests/e2e/test_encoders.py).

Why ONNX Runtime: recall embeds one short topic per call, and a 6-layer model on a dozen tokens is mostly framework
overhead. Measured on the project machine (2 cores, quiet, 120 one-sentence topics; ``python -m bench.bench_encoders``):
PyTorch through sentence-transformers 9.8 ms median per topic, 17.7 ms for a batch of 8; ONNX Runtime 2.5 ms and
9.8 ms, with vectors identical to 1e-6. It also starts without importing PyTorch: a command that embeds pays
about 1 s of loading instead of about 8 s.

The ONNX file is made once per model and machine, from the PyTorch model (``torch.onnx.export``, 2 s), checked
against it, and kept in the cache directory (``$XDG_CACHE_HOME/graphmem/onnx`` or ``~/.cache/graphmem/onnx``) under
the SHA-256 of the model's weights and configuration, so every installation of the same model shares it. A model
of another structure (another pooling, a dense layer), a failed export or a failed check fall back to PyTorch with
a warning: the vectors are the same either way, only the speed differs.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
import threading
import warnings
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

import numpy as np
import numpy.typing as npt

from graphmem.errors import EmbeddingError

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

log = logging.getLogger(__name__)

Vectors = npt.NDArray[np.float32]
Backend = Literal["onnx", "torch"]
BACKENDS: tuple[Backend, ...] = ("onnx", "torch")


def backend_named(name: str) -> Backend:
    """The backend called ``name`` (one of :data:`BACKENDS`); ValueError naming the known ones otherwise."""
    for backend in BACKENDS:
        if name == backend:
            return backend
    raise ValueError(f"unknown embedding backend {name!r}: one of {', '.join(BACKENDS)}")

AGREEMENT = 0.9999
"""Least cosine between the ONNX and the PyTorch vector of each check text for the ONNX file to be used."""

_CHECK_TEXTS = (
    "Is Parker a traitor?",
    "Riley told me in private that Casey voted to banish Taylor at the round table on day 2.",
    "ok",
    # longer than the model's 256 tokens: truncation must agree too
    " ".join(["I have watched every one of you at the breakfast table and I still cannot say who it is."] * 20),
)
_WEIGHT_FILES = ("model.safetensors", "pytorch_model.bin")


class Encoder(Protocol):
    """What :class:`graphmem.embedding.Embedder` needs of a backend."""

    backend: Backend
    dimension: int
    lanes: int
    """Forward passes that may run at once in one process (one per core under ONNX Runtime, one under PyTorch)."""

    def encode(self, texts: Sequence[str], batch_size: int) -> Vectors:
        """L2-normalised float32 vectors of ``texts``, shape (len(texts), dimension)."""
        ...


def default_cache_dir(environ: os._Environ[str] | dict[str, str] | None = None) -> Path:
    """Where ONNX files are kept: ``$XDG_CACHE_HOME/graphmem/onnx``, else ``~/.cache/graphmem/onnx``."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base).expanduser() / "graphmem" / "onnx"


class TorchEncoder:
    """A sentence-transformers model run by PyTorch (any model sentence-transformers can load); ``model``: one
    already loaded from ``path``.

    Raises EmbeddingError when the model cannot be loaded or fails to encode.
    """

    backend: Backend = "torch"
    lanes = 1  # PyTorch's own thread team spans the cores: one pass at a time

    def __init__(self, path: str, device: str = "cpu", model: SentenceTransformer | None = None) -> None:
        self.model = model if model is not None else _load_sentence_transformer(path, device)
        # sentence-transformers 6 renamed the method; older releases only have the long name
        getter = getattr(self.model, "get_embedding_dimension", None) or self.model.get_sentence_embedding_dimension
        dim = getter()
        if dim is None:
            raise EmbeddingError(f"model {path!r} does not report its dimension")
        self.dimension = int(dim)

    def encode(self, texts: Sequence[str], batch_size: int) -> Vectors:
        vectors: Any = self.model.encode(list(texts), batch_size=batch_size, normalize_embeddings=True,
                                         convert_to_numpy=True, show_progress_bar=False)
        out: Vectors = np.asarray(vectors, dtype=np.float32)
        return out


class OnnxEncoder:
    """A Transformer + mean-Pooling sentence-transformers model run by ONNX Runtime, tokenised by the model's own
    fast tokenizer (``tokenizer.json``, truncated to the model's ``max_seq_length``).

    path : str, the model directory; onnx_file : Path, the exported transformer (see :func:`onnx_file_for`)
    lanes : int >= 0, passes that may run at once, in one call of several passes or in concurrent calls (0: one per
    core)

    Each pass runs on one thread (ONNX Runtime's intra-op pool is off), and a call of several passes runs them side
    by side on ``lanes`` threads (``InferenceSession.run`` releases the GIL and may be called concurrently).
    Measured on the project machine (2 cores, both settings alternated in one process): one short topic 4.6 ms of
    wall and of CPU time, where a 2-thread pass took 5.1 ms of wall and 6.3 ms of CPU; 300 game messages 2.9 s wall,
    5.3 s CPU against 3.1-4.0 s and 5.2-6.0 s. Recall embeds one short topic per call, so a pass split over two
    cores was mostly synchronisation, paid in CPU that Neo4j and the other requests needed.
    """

    backend: Backend = "onnx"
    largest_pass = 16
    """Texts per ONNX Runtime pass at most, whatever batch size is asked: on 300 long game messages 16 per pass took
    5.1-6.2 s, 64 per pass 7.0 s (PyTorch, 64 per pass: 5.9-6.2 s; ``python -m bench.bench_encoders``)."""

    def __init__(self, path: str, onnx_file: Path, lanes: int = 0) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        layout = _mean_pooling_layout(Path(path))
        if layout is None:
            raise EmbeddingError(f"model {path!r} is not a Transformer + mean-Pooling model")
        self.dimension, max_length = layout
        self.tokenizer = Tokenizer.from_file(str(Path(path) / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length=max_length)
        self.tokenizer.no_padding()
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        self.session = ort.InferenceSession(str(onnx_file), options, providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self.session.get_inputs()}
        self.lanes = lanes if lanes > 0 else max(1, os.cpu_count() or 1)
        self._pool: ThreadPoolExecutor | None = None
        self._pool_lock = threading.Lock()

    def encode(self, texts: Sequence[str], batch_size: int) -> Vectors:
        encodings = self.tokenizer.encode_batch([text.strip() for text in texts])  # as sentence-transformers does
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))  # little padding per batch
        batch_size = max(1, min(batch_size, self.largest_pass))
        passes = [order[start:start + batch_size] for start in range(0, len(order), batch_size)]

        def run(chosen: list[int]) -> None:
            width = max(len(encodings[i].ids) for i in chosen)
            ids = np.zeros((len(chosen), width), dtype=np.int64)
            mask = np.zeros((len(chosen), width), dtype=np.int64)
            for row, i in enumerate(chosen):
                n = len(encodings[i].ids)
                ids[row, :n] = encodings[i].ids
                mask[row, :n] = 1
            feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            hidden = self.session.run(None, {k: v for k, v in feeds.items() if k in self._inputs})[0]
            weights = mask[..., None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
            out[chosen] = pooled / np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)

        if len(passes) < 2 or self.lanes < 2:
            for chosen in passes:
                run(chosen)
        else:
            list(self._workers().map(run, passes))  # each pass writes its own rows of `out`; raises what a pass raised
        return out

    def _workers(self) -> ThreadPoolExecutor:
        with self._pool_lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.lanes, thread_name_prefix="graphmem-onnx")
            return self._pool


def load_encoder(path: str, backend: Backend = "onnx", device: str = "cpu",
                 cache_dir: Path | None = None) -> Encoder:
    """The encoder of the model at ``path`` (a directory or a name sentence-transformers can load).

    ``backend="onnx"`` runs ONNX Runtime when the model is a Transformer + mean-Pooling directory and the device is
    the CPU, making and checking the ONNX file on first use; anything else, or any failure there, falls back to
    PyTorch (logged). Raises EmbeddingError when the model cannot be loaded at all, ValueError for an unknown
    backend.
    """
    if backend_named(backend) == "onnx" and device == "cpu" and _mean_pooling_layout(Path(path)) is not None:
        try:
            target = onnx_file_for(path, cache_dir or default_cache_dir())
            if target.is_file():
                try:
                    return OnnxEncoder(path, target)
                except Exception as e:  # a damaged file (a full disk, an interrupted copy): made again below
                    log.warning("the ONNX file %s cannot be loaded (%s): exporting the model again", target, e)
            _export(path, target)
            return OnnxEncoder(path, target)
        except Exception as e:  # any failure of the third-party exporter or runtime: PyTorch gives the same vectors
            log.warning("embedding with PyTorch: the ONNX backend is unavailable for %s (%s)", path, e)
    elif backend == "onnx":
        log.info("embedding with PyTorch: %s is not a Transformer + mean-Pooling model on the CPU", path)
    return TorchEncoder(path, device)


def onnx_file_for(path: str, cache_dir: Path) -> Path:
    """The ONNX file of the model at ``path`` in ``cache_dir``, named by the SHA-256 of its weights and its
    ``config.json``: every installation of the same model (each virtual environment has its own copy) shares one
    file, and new weights get a new one. The digest of a weights file is remembered in ``cache_dir/digests.json`` by
    its path, size and modification time, so a process hashes the 90 MB only the first time."""
    directory = Path(path).resolve()
    weights = next((directory / name for name in _WEIGHT_FILES if (directory / name).is_file()), None)
    if weights is None:
        raise EmbeddingError(f"no weights ({' or '.join(_WEIGHT_FILES)}) in {directory}")
    config = directory / "config.json"
    extra = config.read_bytes() if config.is_file() else b""
    digest = hashlib.sha256(_file_digest(weights, cache_dir).encode() + extra).hexdigest()[:16]
    return cache_dir / f"{directory.name}-{digest}.onnx"


def _file_digest(file: Path, cache_dir: Path) -> str:
    """SHA-256 of ``file``, remembered in ``cache_dir/digests.json`` under its path, size and modification time."""
    stat = file.stat()
    key = f"{file.resolve()}|{stat.st_size}|{stat.st_mtime_ns}"
    memo = cache_dir / "digests.json"
    try:
        known: dict[str, str] = json.loads(memo.read_text("utf-8"))
    except (OSError, ValueError):
        known = {}
    if isinstance(known.get(key), str):
        return known[key]
    sha = hashlib.sha256()
    with file.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            sha.update(block)
    known = {**(known if isinstance(known, dict) else {}), key: sha.hexdigest()}
    try:  # a memo that cannot be written only costs the next process the hash again
        cache_dir.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(suffix=".json", dir=cache_dir)
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(known, out)
        os.replace(temporary, memo)
    except OSError as e:
        log.debug("cannot remember the digest of %s in %s: %s", file, memo, e)
    return known[key]


def _mean_pooling_layout(directory: Path) -> tuple[int, int] | None:
    """(dimension, max_seq_length) when ``directory`` holds a sentence-transformers Transformer + mean-Pooling
    (+ Normalize) model with a fast tokenizer, else None."""
    try:
        modules = [m["type"].rsplit(".", 1)[-1] for m in json.loads((directory / "modules.json").read_text("utf-8"))]
        pooling = json.loads((directory / "1_Pooling" / "config.json").read_text("utf-8"))
        config = json.loads((directory / "sentence_bert_config.json").read_text("utf-8"))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    modes = {k for k, v in pooling.items() if k.startswith("pooling_mode") and v}
    if (modules not in (["Transformer", "Pooling"], ["Transformer", "Pooling", "Normalize"])
            or modes != {"pooling_mode_mean_tokens"} or not (directory / "tokenizer.json").is_file()
            or config.get("do_lower_case")):
        return None
    return int(pooling["word_embedding_dimension"]), int(config.get("max_seq_length") or 512)


def _export(path: str, target: Path) -> None:
    """Export the transformer of the model at ``path`` to ``target`` and check it against PyTorch on the check
    texts (cosine >= AGREEMENT each); written atomically, so concurrent processes never read half a file."""
    import torch

    model = _load_sentence_transformer(path, "cpu")
    transformer: Any = model[0].auto_model
    transformer.eval()

    class LastHiddenState(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.inner = transformer

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            return self.inner(input_ids=input_ids, attention_mask=attention_mask,
                              token_type_ids=token_type_ids).last_hidden_state

    sample = model.tokenizer(list(_CHECK_TEXTS[:2]), padding=True, return_tensors="pt")
    names = ["input_ids", "attention_mask", "token_type_ids"]
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(suffix=".onnx", dir=target.parent)
    os.close(handle)
    try:
        with warnings.catch_warnings(), torch.no_grad():
            warnings.simplefilter("ignore")
            torch.onnx.export(LastHiddenState(), tuple(sample[n] for n in names), temporary, input_names=names,
                              output_names=["last_hidden_state"], opset_version=17, dynamo=False,
                              dynamic_axes={n: {0: "batch", 1: "tokens"} for n in [*names, "last_hidden_state"]})
        reference = TorchEncoder(path, model=model).encode(_CHECK_TEXTS, batch_size=8)
        candidate = OnnxEncoder(path, Path(temporary)).encode(_CHECK_TEXTS, batch_size=8)
        agreement = float((reference * candidate).sum(axis=1).min())
        if agreement < AGREEMENT:
            raise EmbeddingError(f"ONNX export disagrees with PyTorch (least cosine {agreement:.6f})")
        os.chmod(temporary, 0o644)
        os.replace(temporary, target)
        log.info("exported %s to %s (least cosine to PyTorch %.6f)", path, target, agreement)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


def _load_sentence_transformer(path: str, device: str) -> SentenceTransformer:
    """The sentence-transformers model at ``path``, loaded offline (graphmem never needs the Hugging Face hub)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")  # no "Loading weights" bars on stderr
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    try:
        from sentence_transformers import SentenceTransformer

        return SentenceTransformer(path, device=device)
    except Exception as e:  # any failure of the third-party loader is an EmbeddingError
        if not Path(path).exists():  # a hub name not downloaded: the loader's message speaks of connecting
            raise EmbeddingError(f"cannot load embedding model {path!r}: it is neither a directory nor a model in the "
                                 "local Hugging Face cache, and graphmem runs offline (HF_HUB_OFFLINE=1): give the "
                                 "directory of a sentence-transformers model") from e
        raise EmbeddingError(f"cannot load embedding model from {path}: {str(e).splitlines()[0]}") from e

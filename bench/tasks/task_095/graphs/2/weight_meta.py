class Program_weight_tensor_meta_cls_tokens:
    name = "in_0"
    original_name = "cls_tokens"
    shape = [2, 1, 768]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.001
    std = 0.020
    data = None


class Program_weight_tensor_meta_embeddings:
    name = "in_1"
    original_name = "embeddings"
    shape = [2, 196, 768]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.001
    std = 0.553
    data = None

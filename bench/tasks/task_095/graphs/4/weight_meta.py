class Program_weight_tensor_meta_cls_tokens:
    name = "in_0"
    original_name = "cls_tokens"
    shape = [1, 1, 384]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.021
    data = None


class Program_weight_tensor_meta_embeddings:
    name = "in_1"
    original_name = "embeddings"
    shape = [1, 256, 384]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.002
    std = 0.486
    data = None

class Program_weight_tensor_meta_cls_tokens:
    name = "in_0"
    original_name = "cls_tokens"
    shape = [2, 1, 384]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_embeddings:
    name = "in_1"
    original_name = "embeddings"
    shape = [2, 196, 384]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.001
    std = 0.553
    data = None

class Program_weight_tensor_meta_attention_score:
    name = "in_0"
    original_name = "attention_score"
    shape = [1, 12, 128, 128]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.086
    std = 0.638
    data = None


class Program_weight_tensor_meta_mask:
    name = "in_1"
    original_name = "mask"
    shape = [1, 1, 128, 128]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None

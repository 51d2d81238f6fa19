class Program_weight_tensor_meta_q_embed:
    name = "in_0"
    original_name = "q_embed"
    shape = [1, 9, 128, 64]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 0.479
    data = None


class Program_weight_tensor_meta_key:
    name = "in_1"
    original_name = "key"
    shape = [1, 9, 128, 64]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 0.486
    data = None


class Program_weight_tensor_meta_value:
    name = "in_2"
    original_name = "value"
    shape = [1, 9, 128, 64]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 0.480
    data = None


class Program_weight_tensor_meta_attention_mask_1:
    name = "in_3"
    original_name = "attention_mask_1"
    shape = [1, 1, 128, 128]
    dtype = "torch.bool"
    device = "cpu"
    mean = None
    std = None
    data = None

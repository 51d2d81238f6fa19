class Program_weight_tensor_meta_attention_score:
    name = "in_0"
    original_name = "attention_score"
    shape = [2, 12, 32, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.068
    std = 0.641
    data = None


class Program_weight_tensor_meta_mask:
    name = "in_1"
    original_name = "mask"
    shape = [2, 1, 32, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = -4.2535293329816107e+37
    std = 1.125652943532824e+38
    data = None

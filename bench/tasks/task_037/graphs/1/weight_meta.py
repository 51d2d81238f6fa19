class Program_weight_tensor_meta_attention_score:
    name = "in_0"
    original_name = "attention_score"
    shape = [4, 12, 64, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.081
    std = 0.655
    data = None


class Program_weight_tensor_meta_mask:
    name = "in_1"
    original_name = "mask"
    shape = [4, 1, 64, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = -2.1267646664908054e+37
    std = 8.237175346114391e+37
    data = None

class Program_weight_tensor_meta_getitem_37:
    name = "in_0"
    original_name = "getitem_37"
    shape = [4, 1, 64, 1]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.941
    std = 0.235
    data = None
    min_val = 0.000
    max_val = 1.000

class Program_weight_tensor_meta_getitem_4:
    name = "in_0"
    original_name = "getitem_4"
    shape = [2, 196, 1]
    dtype = "torch.int64"
    device = "cpu"
    mean = None
    std = None
    data = None
    min_val = 0
    max_val = 13


class Program_weight_tensor_meta_getitem_5:
    name = "in_1"
    original_name = "getitem_5"
    shape = [2, 1, 196]
    dtype = "torch.int64"
    device = "cpu"
    mean = None
    std = None
    data = None
    min_val = 0
    max_val = 13

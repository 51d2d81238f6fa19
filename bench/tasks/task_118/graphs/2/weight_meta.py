class Program_weight_tensor_meta_add_2:
    name = "in_0"
    original_name = "add_2"
    shape = []
    dtype = "torch.int64"
    device = "cpu"
    mean = None
    std = None
    data = [24006]


class Program_weight_tensor_meta_L_self_buffers_padding_total_:
    name = "in_1"
    original_name = "L_self_buffers_padding_total_"
    shape = []
    dtype = "torch.int64"
    device = "cpu"
    mean = None
    std = None
    data = [6]

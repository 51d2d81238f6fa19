class Program_weight_tensor_meta_q_embed:
    name = "in_0"
    original_name = "q_embed"
    shape = [2, 8, 32, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.006
    std = 0.444
    data = None


class Program_weight_tensor_meta_query_pass:
    name = "in_1"
    original_name = "query_pass"
    shape = [2, 8, 32, 48]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.001
    std = 0.447
    data = None

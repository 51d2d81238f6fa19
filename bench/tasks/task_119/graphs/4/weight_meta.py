class Program_weight_tensor_meta_pooled_output:
    name = "in_0"
    original_name = "pooled_output"
    shape = [1, 384]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.005
    std = 0.405
    data = None

class Program_weight_tensor_meta_pooled_output:
    name = "in_0"
    original_name = "pooled_output"
    shape = [4, 768]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.036
    std = 0.539
    data = None

class Program_weight_tensor_meta_embedding:
    name = "in_0"
    original_name = "embedding"
    shape = [4, 64, 768]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None

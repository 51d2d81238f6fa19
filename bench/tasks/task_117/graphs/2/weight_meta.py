class Program_weight_tensor_meta_attention_score:
    name = "in_0"
    original_name = "attention_score"
    shape = [1, 1, 3136, 784]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 0.000
    data = None

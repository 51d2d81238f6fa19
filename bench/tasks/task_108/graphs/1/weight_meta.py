class Program_weight_tensor_meta_q_head:
    name = "in_0"
    original_name = "q_head"
    shape = [4, 64, 12, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.001
    std = 0.703
    data = None

class Program_weight_tensor_meta_attn_weights_1:
    name = "in_0"
    original_name = "attn_weights_1"
    shape = [4, 16, 64, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -1.6964207392494257e+38
    std = 1.6947681285149202e+38
    data = None

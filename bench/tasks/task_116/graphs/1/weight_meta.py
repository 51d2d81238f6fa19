class Program_weight_tensor_meta_attn_weights_1:
    name = "in_0"
    original_name = "attn_weights_1"
    shape = [4, 4, 64, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = -1.7030731667753274e+38
    std = 1.7014240040504545e+38
    data = None

class Program_weight_tensor_meta_attention_scores_1:
    name = "in_0"
    original_name = "attention_scores_1"
    shape = [4, 4, 196, 196]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None

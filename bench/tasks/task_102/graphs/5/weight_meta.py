class Program_weight_tensor_meta_inputs_embeds:
    name = "in_0"
    original_name = "inputs_embeds"
    shape = [1, 128, 1024]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.020
    data = None


class Program_weight_tensor_meta_L_args_0_modules_word_embeddings_layernorm_parameters_weight_:
    name = "in_1"
    original_name = "L_args_0_modules_word_embeddings_layernorm_parameters_weight_"
    shape = [1024]
    dtype = "torch.float16"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_args_0_modules_word_embeddings_layernorm_parameters_bias_:
    name = "in_2"
    original_name = "L_args_0_modules_word_embeddings_layernorm_parameters_bias_"
    shape = [1024]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None

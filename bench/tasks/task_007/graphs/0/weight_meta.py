class Program_weight_tensor_meta_hidden_state_71:
    name = "in_0"
    original_name = "hidden_state_71"
    shape = [1, 384, 7, 7]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.056
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_2_modules_layers_modules_0_modules_attention_modules_attention_modules_convolution_projection_value_modules_convolution_projection_modules_normalization_buffers_running_mean_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_stages_modules_2_modules_layers_modules_0_modules_attention_modules_attention_modules_convolution_projection_value_modules_convolution_projection_modules_normalization_buffers_running_mean_"
    shape = [384]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_2_modules_layers_modules_0_modules_attention_modules_attention_modules_convolution_projection_value_modules_convolution_projection_modules_normalization_buffers_running_var_:
    name = "in_2"
    original_name = "L_self_modules_encoder_modules_stages_modules_2_modules_layers_modules_0_modules_attention_modules_attention_modules_convolution_projection_value_modules_convolution_projection_modules_normalization_buffers_running_var_"
    shape = [384]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_2_modules_layers_modules_0_modules_attention_modules_attention_modules_convolution_projection_value_modules_convolution_projection_modules_normalization_parameters_weight_:
    name = "in_3"
    original_name = "L_self_modules_encoder_modules_stages_modules_2_modules_layers_modules_0_modules_attention_modules_attention_modules_convolution_projection_value_modules_convolution_projection_modules_normalization_parameters_weight_"
    shape = [384]
    dtype = "torch.float32"
    device = "cpu"
    mean = 1.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_L_self_modules_encoder_modules_stages_modules_2_modules_layers_modules_0_modules_attention_modules_attention_modules_convolution_projection_value_modules_convolution_projection_modules_normalization_parameters_bias_:
    name = "in_4"
    original_name = "L_self_modules_encoder_modules_stages_modules_2_modules_layers_modules_0_modules_attention_modules_attention_modules_convolution_projection_value_modules_convolution_projection_modules_normalization_parameters_bias_"
    shape = [384]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.000
    data = None


class Program_weight_tensor_meta_cls_token_1:
    name = "in_5"
    original_name = "cls_token_1"
    shape = [1, 1, 384]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.990
    data = None


class Program_weight_tensor_meta_hidden_state_70:
    name = "in_6"
    original_name = "hidden_state_70"
    shape = [1, 196, 384]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.056
    data = None


class Program_weight_tensor_meta_hidden_state_67:
    name = "in_7"
    original_name = "hidden_state_67"
    shape = [1, 49, 384]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.058
    data = None

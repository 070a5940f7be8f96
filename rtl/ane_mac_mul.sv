// ane_mac_mul: operand decode and exact products of one MAC lane (NUMERICS N-1, N-2.1 to N-2.3,
// N-2.8). Combinational; the lane registers around it.
//   fp16 x fp16, int8 x fp16, fp16 x int8: one exact product as mac_exact_t (0 x inf = +0,
//     inf x nonzero = signed inf); an int8 operand is converted exactly to the fp16 form.
//   int8 x int8: the exact int16 product.
//   int4 packed: four int4 data values (bits [3:0], [7:4], [11:8], [15:12]) times one int4
//     kernel value (bits [3:0]): four exact products.
// The significand product of every fp16/int8 mode comes from the one shared 11 x 11 multiplier
// (ane_sig_mul). The four int4 products use four 4 x 4 multipliers beside it: four independent
// products do not fit side by side in an 11 x 11 array.
`default_nettype none

module ane_mac_mul #(
  // N-0.2 generation: ane_pkg::GenM1 (0) or ane_pkg::GenM5 (1).
  parameter logic Gen = ane_pkg::GenM1
) (
  input  wire ane_pkg::mac_mode_e   mode_i,
  input  wire logic [15:0]          data_i,
  input  wire logic [15:0]          kernel_i,
  output      ane_pkg::mac_exact_t  prod_o,      // fp16 / mixed modes
  output      logic signed [15:0]   int_prod_o,  // int8 x int8
  output      logic [31:0]          int4_prod_o, // int4: four signed 8-bit products, [8i+7:8i]
  output      ane_pkg::fp16_unpacked_t data_fp_o   // the fp16 data operand after N-1 / N-2.3
);


  ane_pkg::fp16_unpacked_t data_fp, kernel_fp, data_op, kernel_op;

  ane_fp16_unpack #(.Gen(Gen)) u_unpack_data   (.fp16_i(data_i),   .op_o(data_fp));
  ane_fp16_unpack #(.Gen(Gen)) u_unpack_kernel (.fp16_i(kernel_i), .op_o(kernel_fp));
  assign data_fp_o = data_fp;

  // An int8 in bits [7:0] in the fp16 operand form: value = sig * 2^(exp - 25) with exp = 25.
  // (Written out as assignments: Yosys 0.23 cannot elaborate a function returning a struct.)
  ane_pkg::fp16_unpacked_t data_int, kernel_int;
  logic [7:0] data_mag, kernel_mag;

  always_comb begin
    data_mag           = data_i[7] ? (~data_i[7:0] + 8'd1) : data_i[7:0];  // -128 -> 128
    data_int.sign      = data_i[7];
    data_int.exp       = 5'd25;
    data_int.sig       = {3'b000, data_mag};
    data_int.is_zero   = (data_i[7:0] == 8'h00);
    data_int.is_inf    = 1'b0;
    kernel_mag         = kernel_i[7] ? (~kernel_i[7:0] + 8'd1) : kernel_i[7:0];
    kernel_int.sign    = kernel_i[7];
    kernel_int.exp     = 5'd25;
    kernel_int.sig     = {3'b000, kernel_mag};
    kernel_int.is_zero = (kernel_i[7:0] == 8'h00);
    kernel_int.is_inf  = 1'b0;
  end

  logic        data_is_int, kernel_is_int;
  logic [21:0] sig_prod;
  logic [5:0]  exp_sum;
  logic [82:0] shifted;

  always_comb begin
    data_is_int   = (mode_i == ane_pkg::ModeI8xF16) || (mode_i == ane_pkg::ModeInt8);
    kernel_is_int = (mode_i == ane_pkg::ModeF16xI8) || (mode_i == ane_pkg::ModeInt8);
    data_op       = data_is_int   ? data_int   : data_fp;
    kernel_op     = kernel_is_int ? kernel_int : kernel_fp;
  end

  ane_sig_mul u_sig_mul (.a_i(data_op.sig), .b_i(kernel_op.sig), .p_o(sig_prod));

  always_comb begin
    // value = sig_prod * 2^(exp_a + exp_b - 50) = (sig_prod << (exp_a + exp_b - 2)) * 2^-48
    exp_sum = {1'b0, data_op.exp} + {1'b0, kernel_op.exp};
    shifted = 83'(sig_prod) << (exp_sum - 6'd2);
    prod_o  = '0;
    if (data_op.is_zero || kernel_op.is_zero) begin
      prod_o = '0;  // includes 0 x inf = +0
    end else if (data_op.is_inf || kernel_op.is_inf) begin
      prod_o.inf  = 1'b1;
      prod_o.sign = data_op.sign ^ kernel_op.sign;
    end else begin
      prod_o.sign = data_op.sign ^ kernel_op.sign;
      prod_o.mag  = shifted;
    end
    int_prod_o = (data_op.sign ^ kernel_op.sign) ? -$signed({1'b0, sig_prod[14:0]})
                                                 :  $signed({1'b0, sig_prod[14:0]});
  end

  // int4 packed mode: four small signed multipliers.
  for (genvar i = 0; i < 4; i++) begin : g_int4
    logic signed [3:0] d4, k4;
    logic signed [7:0] p8;
    assign d4 = data_i[4*i +: 4];
    assign k4 = kernel_i[3:0];
    assign p8 = 8'(d4) * 8'(k4);
    assign int4_prod_o[8*i +: 8] = p8;
  end

endmodule

`default_nettype wire

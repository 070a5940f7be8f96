// ane_pe_fc: the planar engine's format converter, one element per lane per cycle (NUMERICS
// N-1, N-4.1, N-4.2, N-4.6; docs/planar.md). The engine has two: the first converts what enters
// the engine, the second what leaves it; both are this module.
//
//   x  = in_int8_i ? int8 (lane bits [7:0]) as fp16, exact : the lane's fp16 code
//   p  = RNE16(x * scale)                 S1  (the elementwise multiply)
//   s  = RNE16(p + bias)                  S2  (the elementwise add)
//   u  = unary(s): none, abs, neg, relu   S2
//   g  = in_gain_i ? RNE16(16 * u) : u    S3  (the width-slice gain of N-4.6, overflow to inf)
//   y  = in_out_int8_i ? int8 of g (RNE, clamped to [-128, 127]; bits [15:8] copy bit 7) : g
//
// Scale and bias come from a table of NumChannels (scale, bias) pairs written through the
// configuration port: entry in_ch_i when in_perch_i is set (a per-channel vector broadcast over
// the plane of channel in_ch_i), entry 0 otherwise (a scalar broadcast over everything). A beat
// reads the table in the cycle it is accepted; a write in that cycle takes effect from the next.
// Scale 1.0 and bias +0 make the affine step the identity (exact after N-1).
//
// Latency 3, one vector per cycle, valid/ready; the stages advance together and stall only while
// a result waits at the output.
`default_nettype none

module ane_pe_fc #(
  parameter int unsigned NumLanes    = 16,
  parameter int unsigned NumChannels = 16,
  localparam int unsigned ChW        = (NumChannels > 1) ? $clog2(NumChannels) : 1
) (
  input  wire logic                   clk_i,
  input  wire logic                   rst_ni,
  // configuration: table entry cfg_addr_i <- (cfg_scale_i, cfg_bias_i)
  input  wire logic                   cfg_we_i,
  input  wire logic [ChW-1:0]         cfg_addr_i,
  input  wire logic [15:0]            cfg_scale_i,
  input  wire logic [15:0]            cfg_bias_i,
  // one vector of NumLanes elements and its conversion
  input  wire logic                   in_valid_i,
  output      logic                   in_ready_o,
  input  wire logic [NumLanes*16-1:0] in_data_i,
  input  wire logic                   in_int8_i,
  input  wire logic                   in_perch_i,
  input  wire logic [ChW-1:0]         in_ch_i,
  input  wire logic [1:0]             in_unary_i,  // 0 none, 1 abs, 2 neg, 3 relu
  input  wire logic                   in_gain_i,
  input  wire logic                   in_out_int8_i,
  output      logic                   out_valid_o,
  input  wire logic                   out_ready_i,
  output      logic [NumLanes*16-1:0] out_y_o
);

  localparam logic [1:0] UnAbs = 2'd1, UnNeg = 2'd2, UnRelu = 2'd3;  // 0: none (the default)

  // ---- the parameter table ----
  logic [NumChannels*32-1:0] tab_q;  // entry c: {scale, bias} at [32 c +: 32]
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int c = 0; c < NumChannels; c++) tab_q[32*c +: 32] <= {16'h3C00, 16'h0000};
    end else if (cfg_we_i) begin
      tab_q[32*cfg_addr_i +: 32] <= {cfg_scale_i, cfg_bias_i};
    end
  end
  logic [ChW-1:0] sel;
  logic [31:0]    entry;
  assign sel   = in_perch_i ? in_ch_i : '0;
  assign entry = tab_q[32*sel +: 32];

  // ---- handshake: three stages moving together ----
  logic en;
  logic v1_q, v2_q, v3_q;
  assign en          = !v3_q || out_ready_i;
  assign in_ready_o  = en;
  assign out_valid_o = v3_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      v1_q <= 1'b0;
      v2_q <= 1'b0;
      v3_q <= 1'b0;
    end else if (en) begin
      v1_q <= in_valid_i;
      v2_q <= v1_q;
      v3_q <= v2_q;
    end
  end

  logic [15:0] bias1_q;
  logic [1:0]  unary1_q;
  logic        gain1_q, gain2_q, oint1_q, oint2_q;
  always_ff @(posedge clk_i) begin
    if (en) begin
      bias1_q  <= entry[15:0];
      unary1_q <= in_unary_i;
      gain1_q  <= in_gain_i;
      oint1_q  <= in_out_int8_i;
      gain2_q  <= gain1_q;
      oint2_q  <= oint1_q;
    end
  end

  for (genvar l = 0; l < NumLanes; l++) begin : g_lane
    // S1: input format and the scale multiply.
    logic [15:0] d, x, p;
    assign d = in_data_i[16*l +: 16];
    assign x = in_int8_i ? ane_pkg::int8_to_fp16(d[7:0]) : d;
    ane_fp16_mul u_mul (.a_i(x), .b_i(entry[31:16]), .y_o(p));
    logic [15:0] p1_q;
    always_ff @(posedge clk_i) begin
      if (en) p1_q <= p;
    end

    // S2: the bias add and the unary operation. The adder's result is never NaN and never -0.
    logic [15:0] s, un;
    ane_fp16_add u_add (.a_i(p1_q), .b_i(bias1_q), .sub_i(1'b0), .y_o(s));
    always_comb begin
      unique case (unary1_q)
        UnAbs:   un = {1'b0, s[14:0]};
        UnNeg:   un = {!s[15], s[14:0]};
        UnRelu:  un = s[15] ? 16'h0000 : s;
        default: un = s;
      endcase
    end
    logic [15:0] u2_q;
    always_ff @(posedge clk_i) begin
      if (en) u2_q <= un;
    end

    // S3: the width-slice gain and the output format.
    logic [15:0] g16, g, y;
    logic [7:0]  q;
    ane_fp16_ldexp u_gain (.h_i(u2_q), .n_i(8'sd4), .y_o(g16));
    assign g = gain2_q ? g16 : u2_q;
    assign q = ane_pkg::fp16_to_int8(g);
    assign y = oint2_q ? {{8{q[7]}}, q} : g;
    always_ff @(posedge clk_i) begin
      if (en) out_y_o[16*l +: 16] <= y;
    end
  end

endmodule

// SPDX-License-Identifier: Apache-2.0
// ane_core_kread: the kernel side of the core's rasterizer (docs/core.md). For each pass p it
// reads the pass's directory entry (the 64-bit word at k_base + 8 p: [31:0] byte address of the
// pass's compressed kernel group, 8-byte aligned; [47:32] its length in 64-bit beats), then
// streams the group to the kernel extract once per tile of the pass (the extract decodes it
// again for each work-unit set: the kernels stay in memory, not in the core).
//
// Reads are pipelined: at most Credits outstanding, responses in order without back-pressure.
// The directory read waits until every earlier read has been answered (once per pass).
// np_i and ntiles_i are taken at start_i.
`default_nettype none

module ane_core_kread #(
  parameter int unsigned Credits = 16   // a power of two
) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic        start_i,
  output      logic        busy_o,
  input  wire logic [9:0]  np_i,        // passes
  input  wire logic [19:0] ntiles_i,    // tiles per pass (tile rows x tile columns)
  input  wire logic [31:0] k_base_i,    // byte address of the directory, 8-byte aligned
  // kernel memory read port (64-bit beats)
  output      logic        rd_valid_o,
  input  wire logic        rd_ready_i,
  output      logic [31:0] rd_addr_o,
  input  wire logic        rs_valid_i,
  input  wire logic [63:0] rs_data_i,
  // to the kernel extract
  output      logic        kin_valid_o,
  input  wire logic        kin_ready_i,
  output      logic [63:0] kin_data_o
);

  localparam int unsigned CW = $clog2(Credits);

  typedef enum logic [1:0] {
    SIdle   = 2'd0,
    SDirRd  = 2'd1,   // issue the directory read
    SDirWt  = 2'd2,   // wait for its answer
    SStream = 2'd3
  } state_e;
  state_e state_q;

  logic [9:0]  p_q;
  logic [19:0] t_q;
  logic [15:0] b_q, bl_q;    // beat of the group; its last beat (length - 1)
  logic [19:0] tn_q;         // tiles per pass (ntiles_i, taken at start); t_q counts from 1
  logic [9:0]  pl_q;         // the last pass (np_i - 1), taken at start
  logic [31:0] g_q, a_q;
  logic [CW:0] out_q;        // reads issued and not yet answered
  logic        rd_fire, kin_fire, dir_resp;
  logic        d_in_ready;
  logic [CW:0] d_count;

  // Room for every outstanding answer: reads in flight plus beats held <= Credits.
  assign rd_valid_o = ((state_q == SDirRd) && (out_q == '0)) ||
                      ((state_q == SStream) && ((out_q + d_count) < (CW+1)'(Credits)));
  assign rd_addr_o  = (state_q == SStream) ? a_q : k_base_i + {19'd0, p_q, 3'b000};
  assign rd_fire    = rd_valid_o && rd_ready_i;
  assign dir_resp   = rs_valid_i && (state_q == SDirWt);

  ane_fifo #(.Width(64), .Depth(Credits)) u_data (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .in_valid_i (rs_valid_i && !dir_resp), .in_ready_o (d_in_ready), .in_data_i (rs_data_i),
    .out_valid_o(kin_valid_o), .out_ready_i(kin_ready_i), .out_data_o(kin_data_o),
    .count_o    (d_count)
  );
  assign kin_fire = kin_valid_o && kin_ready_i;

  assign busy_o = (state_q != SIdle) || (out_q != '0) || kin_valid_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= SIdle;
      p_q <= '0; t_q <= '0; b_q <= '0; bl_q <= '0; g_q <= '0; a_q <= '0;
      tn_q <= '0; pl_q <= '0;
      out_q <= '0;
    end else begin
      out_q <= out_q + (CW+1)'(rd_fire) - (CW+1)'(rs_valid_i);
      unique case (state_q)
        SIdle: begin
          if (start_i) begin
            p_q  <= '0;
            tn_q <= ntiles_i;
            pl_q <= np_i - 10'd1;
            state_q <= SDirRd;
          end
        end
        SDirRd: if (rd_fire) state_q <= SDirWt;
        SDirWt: begin
          if (rs_valid_i) begin
            g_q  <= rs_data_i[31:0];
            a_q  <= rs_data_i[31:0];
            bl_q <= rs_data_i[47:32] - 16'd1;
            b_q  <= '0;
            t_q  <= 20'd1;
            state_q <= SStream;
          end
        end
        SStream: begin
          if (rd_fire) begin
            if (b_q != bl_q) begin
              b_q <= b_q + 16'd1;
              a_q <= a_q + 32'd8;
            end else if (t_q != tn_q) begin
              b_q <= '0;
              a_q <= g_q;
              t_q <= t_q + 20'd1;
            end else begin
              p_q <= p_q + 10'd1;
              state_q <= (p_q == pl_q) ? SIdle : SDirRd;
            end
          end
        end
        default: state_q <= SIdle;
      endcase
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      if (rs_valid_i && !dir_resp) assert (d_in_ready);
      if (rs_valid_i) assert (out_q != '0);
      if (dir_resp) assert (rs_data_i[47:32] != 16'd0);
      if (start_i) assert (state_q == SIdle);
    end
  end
`endif

  logic unused;
  assign unused = ^{kin_fire, rs_data_i[63:48]};

endmodule

`default_nettype wire

// SPDX-License-Identifier: Apache-2.0
// ane_planar_pack: the planar engine's result packer for reductions through the line buffer
// (docs/planar.md, "The engine"). A job's results (one fp16 value per column, in column order)
// are packed into result beats of NumLanes lanes: lane k of beat b is result b NumLanes + k.
// Each beat leaves with its write descriptor (the byte address of its first result, its count);
// beat b of a job is written at the job's address + b NumLanes eb (eb: 1 for an int8 store, else 2).
//
// The jobs' descriptors (the address of result 0, the number of results, 1 .. 2^LW - 1) arrive
// in job order, ahead of their results; one is taken when the previous job's last result has left.
`default_nettype none

module ane_planar_pack #(
  parameter int unsigned NumLanes = 16,
  parameter int unsigned LW       = 7,
  localparam int unsigned NW      = $clog2(NumLanes + 1),
  localparam int unsigned LB      = NumLanes * 16
) (
  input  wire logic          clk_i,
  input  wire logic          rst_ni,
  input  wire logic          int8_i,      // the store's element size (the task's)
  // job descriptors
  input  wire logic          j_valid_i,
  output      logic          j_ready_o,
  input  wire logic [31:0]   j_addr_i,
  input  wire logic [LW-1:0] j_len_i,
  // results
  input  wire logic          r_valid_i,
  output      logic          r_ready_o,
  input  wire logic [15:0]   r_data_i,
  // result beats and their descriptors, offered together
  output      logic          o_valid_o,
  input  wire logic          o_ready_i,
  output      logic [LB-1:0] o_data_o,
  output      logic          d_valid_o,
  input  wire logic          d_ready_i,
  output      logic [31:0]   d_addr_o,
  output      logic [NW-1:0] d_n_o
);

  logic          jv_q;
  logic [LW-1:0] rem_q;   // the job's results still to come
  logic [NW-1:0] k_q;     // the lane of the next result
  logic [31:0]   a_q;     // the address of the beat being packed
  logic [LB-1:0] pk_q;
  logic          fin, take;

  assign fin       = k_q == NW'(NumLanes - 1) || rem_q == LW'(1);
  assign j_ready_o = !jv_q;
  assign r_ready_o = jv_q && (!fin || (o_ready_i && d_ready_i));
  assign take      = r_valid_i && r_ready_o;
  assign o_valid_o = jv_q && r_valid_i && fin && d_ready_i;
  assign d_valid_o = jv_q && r_valid_i && fin && o_ready_i;
  assign d_addr_o  = a_q;
  assign d_n_o     = k_q + NW'(1);
  always_comb begin
    o_data_o = pk_q;
    for (int l = 0; l < NumLanes; l++) begin
      if (NW'(l) == k_q) o_data_o[16*l +: 16] = r_data_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      jv_q <= 1'b0;
    end else if (!jv_q) begin
      jv_q <= j_valid_i;
    end else if (take && rem_q == LW'(1)) begin
      jv_q <= 1'b0;
    end
  end
  always_ff @(posedge clk_i) begin
    if (!jv_q) begin
      rem_q <= j_len_i;
      a_q   <= j_addr_i;
      k_q   <= '0;
    end else if (take) begin
      rem_q <= rem_q - LW'(1);
      pk_q  <= o_data_o;
      if (fin) begin
        k_q <= '0;
        a_q <= a_q + (int8_i ? 32'(NumLanes) : 32'(2 * NumLanes));
      end else begin
        k_q <= k_q + NW'(1);
      end
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni && !jv_q && j_valid_i) assert (j_len_i != '0);
  end
`endif

endmodule

`default_nettype wire

// SPDX-License-Identifier: Apache-2.0
// ane_mac_lane: one multiply-accumulate lane with 8 accumulator slots (NUMERICS N-2): the MAC
// control unit (ane_mac_ctrl) driving one lane datapath (ane_mac_dp). The array (ane_mac_array)
// drives all its lanes from one control unit; this module is the unit the tests, the benchmarks
// and the synthesis figures measure.
//
// Operation stream (valid/ready), one operation per cycle (initiation interval 1):
//   CmdMac   one product (or compare) into slot in_slot_i; in_first_i clears the slot first,
//            in_last_i ends the reduction (the pending incomplete quad is padded with +0) and
//            produces one result; int4 mode (ModeInt4) writes slots slot .. slot + 3.
//   CmdLoad  loads {in_kernel_i, in_data_i} into the slot (a partial sum to continue, N-2.5).
//   CmdClear clears the slot.
// Result stream (valid/ready): for every CmdMac with last, the slot's new 32-bit register, its
// fp16 output port value (N-2.6) and its saturation flag. Results wait in a two-entry queue;
// back-pressure stops the pipeline only when the queue is full, and changes no result.
// Read port: rd_en_i / rd_slot_i give the slot register one cycle later; it never stalls the MACs.
//
// Pipeline (docs/mac_lane.md): 11 registers, latency 11 cycles from an accepted operation to its
// result. m1 is a narrow floating-point datapath (22-bit products, a 24-bit add12 window, a
// 28-bit fp32 adder); m5 keeps its quads exact (83 bits), as its contract asks, with the same
// registers and the same timing: its exact quad sum in L3, its exact accumulate (a two-path
// adder, ane_mac_acc_exact) in L4..L9 with the accumulator read in L5 and written in L9.
// Same-slot dependencies (ane_mac_ctrl, docs/mac_lane.md "Timing"): an fp or compare operation
// that continues a slot waits while an older operation on the slot is less than 4 (its pending
// quad) or 5 (its accumulator) registers ahead; integer operations wait only for older fp or
// compare work on their slots; CmdLoad / CmdClear wait until their slot has drained. Operations
// on different slots never wait.
`default_nettype none

module ane_mac_lane #(
  // N-0.2 generation: ane_pkg::GenM1 (0) or ane_pkg::GenM5 (1).
  parameter logic Gen = ane_pkg::GenM1
) (
  input  wire logic               clk_i,
  input  wire logic               rst_ni,
  // operation stream
  input  wire logic               in_valid_i,
  output      logic               in_ready_o,
  input  wire ane_pkg::mac_cmd_e  in_cmd_i,
  input  wire ane_pkg::mac_mode_e in_mode_i,
  input  wire logic [2:0]         in_slot_i,
  input  wire logic               in_first_i,
  input  wire logic               in_last_i,
  input  wire logic [15:0]        in_data_i,
  input  wire logic [15:0]        in_kernel_i,
  // result stream
  output      logic               out_valid_o,
  input  wire logic               out_ready_i,
  output      logic [2:0]         out_slot_o,
  output      logic [31:0]        out_acc_o,
  output      logic [15:0]        out_fp16_o,
  output      logic               out_sat_o,
  // read port
  input  wire logic               rd_en_i,
  input  wire logic [2:0]         rd_slot_i,
  output      logic               rd_valid_o,
  output      logic [31:0]        rd_acc_o,
  output      logic [15:0]        rd_fp16_o,
  output      logic               rd_sat_o
);

  ane_pkg::mac_ctl_t ctl;
  ane_pkg::mac_oq_t  oq;
  logic              en;

  ane_mac_ctrl u_ctrl (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .in_valid_i  (in_valid_i),
    .in_ready_o  (in_ready_o),
    .in_cmd_i    (in_cmd_i),
    .in_mode_i   (in_mode_i),
    .in_slot_i   (in_slot_i),
    .in_first_i  (in_first_i),
    .in_last_i   (in_last_i),
    .out_valid_o (out_valid_o),
    .out_ready_i (out_ready_i),
    .out_slot_o  (out_slot_o),
    .rd_en_i     (rd_en_i),
    .rd_valid_o  (rd_valid_o),
    .en_o        (en),
    .ctl_o       (ctl),
    .oq_o        (oq)
  );

  ane_mac_dp #(.Gen(Gen)) u_dp (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .en_i        (en),
    .ctl_i       (ctl),
    .oq_i        (oq),
    .in_cmd_i    (in_cmd_i),
    .in_mode_i   (in_mode_i),
    .in_data_i   (in_data_i),
    .in_kernel_i (in_kernel_i),
    .out_acc_o   (out_acc_o),
    .out_fp16_o  (out_fp16_o),
    .out_sat_o   (out_sat_o),
    .rd_slot_i   (rd_slot_i),
    .rd_acc_o    (rd_acc_o),
    .rd_fp16_o   (rd_fp16_o),
    .rd_sat_o    (rd_sat_o)
  );

endmodule

`default_nettype wire
